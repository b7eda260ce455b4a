import { Effect } from "effect"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { dueDone, type DueWorkDeclarations } from "../kernel/ports/due-work.ts"
import { Mandates } from "./mandates.ts"
import { Payments } from "./payments.ts"
import { SIDE_RECORDS_KIND } from "./side-records.ts"
import { Subscriptions } from "./subscriptions.ts"

/**
 * The collections' due work, in this order: mandates are answered by the bank or submitted;
 * subscriptions create the payments whose advance notice starts today; payments are confirmed or
 * fail, the next day's are submitted, late failures, chargebacks and refunds move.
 */
export const collectionDueWork: DueWorkDeclaration<Mandates | Subscriptions | Payments> = Effect.gen(function*() {
  const mandates = yield* Mandates
  const subscriptions = yield* Subscriptions
  const payments = yield* Payments
  return [
    { name: "mandates", order: 20, deadline: false, run: mandates.processDay },
    { name: "subscriptions", order: 30, deadline: false, run: subscriptions.processDay },
    { name: "payments", order: 40, deadline: false, run: payments.processDay }
  ]
})

/** The `side_records` kind (`side-records.ts`), beside the engine's deadlines. */
export const sideRecordsDueWork: Effect.Effect<DueWorkDeclarations, never, Payments | Subscriptions> = Effect.gen(function*() {
  const payments = yield* Payments
  const subscriptions = yield* Subscriptions
  return {
    pumps: [],
    kinds: [{
      kind: SIDE_RECORDS_KIND,
      // Each record is made in a unit of work of its own (`captureDailyItems`).
      ownUnitsOfWork: true,
      run: (item) => Effect.as(Effect.andThen(payments.keepMissingSideRecords(item.organisation), subscriptions.keepMissingSideRecords(item.organisation)), dueDone)
    }]
  }
})
