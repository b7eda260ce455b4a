import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { payouts } from "./domain/payouts.ts"
import { PayoutUpdateRequest } from "./domain/requests.ts"
import { payoutDueWork } from "./jobs.ts"
import { PayoutRepository } from "./repositories.ts"

/** The payouts' room: paying the ledger out to the creditors. */
export const payoutsRoom = defineRoom({
  resources: [payouts],
  repositories: fromBackend(PayoutRepository, payouts),
  requestBodies: { payouts: { update: PayoutUpdateRequest } },
  dueWork: payoutDueWork
})
