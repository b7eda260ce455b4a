import { Effect } from "effect"
import { type InvalidState, now, unsafeLocalDate, type StorageError } from "@paykit/core"
import type { InstalmentScheduleEvent } from "@paykit/machines"
import { CHARGEABLE_MANDATE_STATUSES } from "../mandates/domain/mandates.ts"
import type { Payment } from "../payments/domain/payments.ts"
import { type DailyItems, eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type EngineContext, save } from "../kernel/support.ts"
import type { InstalmentScheduleCheck } from "../payments/domain/instalment-schedule-checks.ts"
import type { InstalmentSchedule } from "./domain/instalment-schedules.ts"
import { type InstalmentDeps, moveSchedule } from "./instalment-schedule-rules.ts"

/** Payment statuses that mean an instalment was not collected (the real API's `errored`). */
const FAILED_PAYMENTS: ReadonlyArray<Payment["status"]> = ["failed", "charged_back"]

/**
 * Payment statuses in which an instalment has ended without failing: paid out, or never to be
 * collected (cancelled, or refused by the payer) and so owed no more.
 */
const ENDED_UNFAILED_PAYMENTS: ReadonlyArray<Payment["status"]> = ["paid_out", "cancelled", "customer_approval_denied"]

/** Every instalment has ended without failing, and at least one was collected. */
const allEnded = (payments: ReadonlyArray<Payment["status"]>): boolean =>
  payments.every((p) => ENDED_UNFAILED_PAYMENTS.includes(p)) && payments.includes("paid_out")

const CAUSES = {
  error: { origin: "gocardless", cause: "instalment_schedule_errored", description: "One of the instalments' payments failed." },
  complete: { origin: "gocardless", cause: "instalment_schedule_completed", description: "Every payment of the instalment schedule has been paid out." },
  resume: { origin: "gocardless", cause: "instalment_schedule_resumed", description: "The failed payments of the instalment schedule have been retried." },
  cancel: { origin: "gocardless", cause: "mandate_cancelled", description: "The instalment schedule's mandate can no longer be charged." }
} as const

/** The moves a schedule makes on its own, following its payments. */
type FollowEvent = keyof typeof CAUSES & InstalmentScheduleEvent

/**
 * Where a schedule's payments and mandate put it: completed when every instalment has ended
 * without failing (paid out, or cancelled or denied, with at least one paid out); otherwise cancelled once its mandate can no longer be charged (its pending payments went with
 * the mandate), errored while one of them failed, active again once none has (a failed payment
 * was retried). Pure, for the due work and its tests.
 */
export const scheduleEventFor = (
  status: InstalmentSchedule["status"],
  payments: ReadonlyArray<Payment["status"]>,
  mandateChargeable: boolean
): FollowEvent | undefined => {
  if (status !== "active" && status !== "errored") return undefined
  if (status === "active" && allEnded(payments)) return "complete"
  if (!mandateChargeable) return "cancel"
  const failing = payments.some((p) => FAILED_PAYMENTS.includes(p))
  if (status === "active" && failing) return "error"
  if (status === "errored" && !failing) return "resume"
  return undefined
}

const follow = (deps: InstalmentDeps, organisation: string, schedule: Versioned<InstalmentSchedule>): Effect.Effect<void, InvalidState | StorageError, EngineContext> =>
  Effect.gen(function*() {
  const statuses: Array<Payment["status"]> = []
  for (const id of schedule.resource.links.payments) statuses.push((yield* Effect.orDie(deps.paymentRecords.get(organisation, id))).resource.status)
  const mandate = yield* Effect.orDie(deps.mandates.get(organisation, schedule.resource.links.mandate))
  const event = scheduleEventFor(schedule.resource.status, statuses, CHARGEABLE_MANDATE_STATUSES.includes(mandate.resource.status))
  if (event === undefined) return
  const moved = yield* moveSchedule(deps, organisation, schedule, event, CAUSES[event])
  // Resumed, it may be complete already (its retried payment paid out): follow it once more.
  if (event === "resume") yield* follow(deps, organisation, yield* Effect.orDie(deps.schedules.get(organisation, moved.id)))
  })

/** A schedule marked due (a payment of it moved): followed, and the mark cleared, in one unit of work. */
const followDue = Effect.fnUntraced(function*(deps: InstalmentDeps, organisation: string, check: Versioned<InstalmentScheduleCheck>) {
  const schedule = yield* Effect.option(deps.schedules.get(organisation, check.resource.id))
  if (schedule._tag === "Some" && FOLLOWED_STATUSES.includes(schedule.value.resource.status)) yield* follow(deps, organisation, schedule.value)
  yield* save(deps.scheduleChecks, organisation, check, { ...check.resource, due_on: null })
})

/** The statuses in which a schedule follows its payments. */
const FOLLOWED_STATUSES: ReadonlyArray<InstalmentSchedule["status"]> = ["active", "errored"]

/**
 * The daily job: the schedules one of whose payments moved by today (`payments/instalment-schedule-checks.ts`)
 * follow their payments, each in a unit of work of its own; no other schedule is read.
 */
export const followPayments = (deps: InstalmentDeps & { readonly eachItem: DailyItems }, organisation: string) =>
  Effect.gen(function*() {
    const today = unsafeLocalDate((yield* now).slice(0, 10))
    yield* eachInChunks(deps.scheduleChecks, organisation, { due_on: { op: "range", lte: today } }, (chunk) =>
      deps.eachItem("instalment schedules", organisation, chunk, idOfVersioned, (check) => followDue(deps, organisation, check)))
  })
