import { Effect } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { mandateDormancies } from "./domain/mandate-dormancy.ts"
import { MandateCreateRequest, MandateMetadataRequest, mandates } from "./domain/mandates.ts"
import { Mandates } from "./mandates.ts"
import { MandateDormancyRepository, MandateRepository } from "./repositories.ts"
import { AccountMandatesLive } from "./account-mandates.ts"

/** The mandates' room: the authority to debit, its dormancy record, and the bank's answers to it. */
export const mandatesRoom = defineRoom({
  stores: [
    store(MandateRepository, mandates),
    store(MandateDormancyRepository, mandateDormancies)
  ],
  requestBodies: {
    mandates: { create: MandateCreateRequest, update: MandateMetadataRequest, cancel: MandateMetadataRequest, reinstate: MandateMetadataRequest }
  },
  /** Mandates are answered by the bank or submitted, before the day's payments are made. */
  dueWork: Effect.map(Mandates, (mandates) => [{ name: "mandates", order: 20, deadline: false, run: mandates.processDay }]),
  services: Mandates.layer,
  ports: AccountMandatesLive
})
