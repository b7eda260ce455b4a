import { Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { payouts } from "./domain/payouts.ts"
import { PayoutUpdateRequest } from "./domain/requests.ts"
import { payoutDueWork } from "./jobs.ts"
import { PayoutRepository } from "./repositories.ts"
import { Payouts } from "./payouts.ts"
import { TaxRates } from "./tax-rates.ts"
import { MoneyReads } from "./money-reads.ts"

/** The payouts' room: paying the ledger out to the creditors. */
export const payoutsRoom = defineRoom({
  stores: [store(PayoutRepository, payouts)],
  requestBodies: { payouts: { update: PayoutUpdateRequest } },
  dueWork: payoutDueWork,
  services: Layer.mergeAll(Payouts.layer, TaxRates.layer, MoneyReads)
})
