import { defineRoom, store } from "../registry/room.ts"
import { BankAuthorisationCreateRequest } from "./domain/bank-authorisation-commands.ts"
import { bankAuthorisations } from "./domain/bank-authorisations.ts"
import { payerFlowDeadlines } from "./due.ts"
import { payerFlowDueWork } from "./jobs.ts"
import { BankAuthorisationRepository } from "./repositories.ts"
import { BankAuthorisations } from "./bank-authorisations.ts"

/** The bank authorisations' room: the authorisations, and their expiry as due work and as a deadline. */
export const bankAuthorisationsRoom = defineRoom({
  stores: [store(BankAuthorisationRepository, bankAuthorisations)],
  requestBodies: { bank_authorisations: { create: BankAuthorisationCreateRequest } },
  dueWork: payerFlowDueWork,
  deadlines: payerFlowDeadlines,
  services: BankAuthorisations.layer
})
