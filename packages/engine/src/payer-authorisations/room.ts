import { defineRoom, store } from "../registry/room.ts"
import { PayerAuthorisationBody } from "./domain/payer-authorisation-commands.ts"
import { payerAuthorisations } from "./domain/payer-authorisations.ts"
import { PayerAuthorisationRepository } from "./repositories.ts"
import { PayerAuthorisations } from "./payer-authorisations.ts"

/** The payer authorisations' room. */
export const payerAuthorisationsRoom = defineRoom({
  stores: [store(PayerAuthorisationRepository, payerAuthorisations)],
  requestBodies: { payer_authorisations: { create: PayerAuthorisationBody, update: PayerAuthorisationBody } },
  services: PayerAuthorisations.layer
})
