import type { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { save } from "../kernel/support.ts"
import type { InstalmentScheduleUpdateRequest } from "./domain/instalment-schedules.ts"
import { type InstalmentDeps, moveSchedule } from "./instalment-schedule-rules.ts"

// What the API does to a schedule after its creation: update its metadata, cancel it.

export const updateSchedule = Effect.fnUntraced(function*(deps: InstalmentDeps, organisation: OrganisationId, id: string, req: InstalmentScheduleUpdateRequest) {
  const current = yield* deps.schedules.get(organisation, id)
  const next = { ...current.resource, metadata: req.metadata ?? current.resource.metadata }
  yield* save(deps.schedules, organisation, current, next)
  return next
})

/** Payment statuses a schedule's cancellation cancels (the payment machine's own `cancel` sources). */
const CANCELLABLE_PAYMENTS = ["pending_customer_approval", "pending_submission"] as const

/**
 * The schedule moves to cancelled (its machine refuses a finished one with `cancellation_failed`)
 * and each of its payments not yet submitted is cancelled with it, through `Payments.cancel`.
 */
export const cancelSchedule = Effect.fnUntraced(function*(deps: InstalmentDeps, organisation: OrganisationId, id: string) {
  const current = yield* deps.schedules.get(organisation, id)
  const cancelled = yield* moveSchedule(deps, organisation, current, "cancel", {
    origin: "api",
    cause: "instalment_schedule_cancelled",
    description: "The instalment schedule was cancelled at your request."
  })
  for (const paymentId of current.resource.links.payments) {
    const payment = yield* Effect.orDie(deps.paymentRecords.get(organisation, paymentId))
    if ((CANCELLABLE_PAYMENTS as ReadonlyArray<string>).includes(payment.resource.status)) {
      yield* deps.payments.cancel(organisation, paymentId, {})
    }
  }
  return cancelled
})
