import { Effect } from "effect"
import { InvalidState, now, unsafeLocalDate } from "@paykit/core"
import { save } from "../kernel/support.ts"
import type { Payment } from "./domain/payments.ts"
import type { InstalmentScheduleCheckRepository } from "./repositories.ts"

/**
 * After a payment of an instalment schedule moved: its schedule is due to be followed by the next
 * daily run (`instalments/instalment-schedule-due.ts`), from today (the day of the instant, UTC).
 */
export const markScheduleDue = (checks: InstalmentScheduleCheckRepository["Service"], organisation: string, payment: Payment) =>
  Effect.gen(function*() {
    const schedule = payment.links.instalment_schedule
    if (schedule === undefined) return
    const at = yield* now
    const today = unsafeLocalDate(at.slice(0, 10))
    const found = yield* Effect.option(checks.get(organisation, schedule))
    if (found._tag === "None") {
      // Another unit of work marking the same schedule first is a lost race, as a save's (409).
      yield* Effect.catchTag(checks.insert(organisation, { id: schedule, created_at: at, due_on: today }), "DuplicateId", (e) =>
        Effect.fail(new InvalidState({ reason: "conflict", message: `${e.resource} ${e.id} was written by another request at the same time` })))
      return
    }
    if (found.value.resource.due_on === null) yield* save(checks, organisation, found.value, { ...found.value.resource, due_on: today })
  })
