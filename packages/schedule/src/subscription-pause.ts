import { decodeInput, InvalidState, toDayNumber } from "@paykit/core"
import type { LocalDate, ValidationFailed } from "@paykit/core"
import type { SubscriptionStatus } from "@paykit/machines"
import { Result } from "effect"
import type { DayCalendar } from "./charge-dates.ts"
import { firstOccurrenceOnOrAfter } from "./subscription-recurrence.ts"
import { SubscriptionPauseRequest, SubscriptionResumeRequest, SUBSCRIPTIONS_ROOT } from "./subscription-request.ts"
import type { SubscriptionSchedule } from "./subscription-schedule.ts"
import { restartAt, resumeOccurrence } from "./subscription-schedule.ts"

/** The real API's `invalid_state` reasons of the pause and resume actions. */
export const PAUSE_REASONS = {
  notActive: "subscription_not_active",
  cannotBePaused: "subscription_cannot_be_paused",
  cannotUpdateCycles: "subscription_paused_cannot_update_cycles",
  cyclesTooFew: "pause_cycles_must_be_greater_than_or_equal_to",
  notPaused: "subscription_not_paused"
} as const

/** The part of a stored subscription that pausing reads and changes. */
export interface PausableSubscription {
  readonly status: SubscriptionStatus
  readonly schedule: SubscriptionSchedule
}

export interface PauseContext {
  readonly calendar: DayCalendar
  /** The mandate's `next_possible_charge_date` today: charges before it are payments already created. */
  readonly next_possible_charge_date: LocalDate
  /**
   * The earliest charge date the first payment after a pause for cycles may have. Schemes with a
   * mandatory waiting period after a pause (AUD and NZD weekly in the real API) pass a later date
   * here; the smallest `pause_cycles` then grows with it. Defaults to `next_possible_charge_date`.
   */
  readonly earliest_charge_date_after_pause?: LocalDate
}

const decodePause = decodeInput(SubscriptionPauseRequest, SUBSCRIPTIONS_ROOT)
const decodeResume = decodeInput(SubscriptionResumeRequest, SUBSCRIPTIONS_ROOT)

const invalid = (reason: string, message: string): InvalidState => new InvalidState({ reason, message })

/**
 * Pauses a subscription (POST /subscriptions/:id/actions/pause). Without `pause_cycles` it is
 * paused until resumed: no charge dates, and with a count no `end_date`. With `pause_cycles` = n
 * the next n charges are skipped and every later one moves n cycles on, so a count subscription
 * still takes all its payments and its `end_date` moves too.
 *
 * Allowed, as in the real API, only for a subscription with a count, one that runs forever, or
 * one already paused for cycles (which may then be paused indefinitely, not for other cycles).
 */
export const pauseSubscription = (
  sub: PausableSubscription,
  input: unknown,
  context: PauseContext
): Result.Result<PausableSubscription, ValidationFailed | InvalidState> => {
  const decoded = decodePause(input)
  if (Result.isFailure(decoded)) return Result.fail(decoded.failure)
  const cycles = decoded.success.pause_cycles ?? null
  const s = sub.schedule
  if (sub.status !== "active" && sub.status !== "paused") {
    return Result.fail(invalid(PAUSE_REASONS.notActive, `The subscription is ${sub.status} and cannot be paused`))
  }
  if (s.endDay !== null) {
    return Result.fail(invalid(PAUSE_REASONS.cannotBePaused, "A subscription with an end_date cannot be paused: only one with a count or one that runs forever"))
  }
  if (s.pause.kind === "paused_indefinitely") {
    return Result.fail(invalid(PAUSE_REASONS.cannotBePaused, "The subscription is already paused until it is resumed"))
  }
  if (s.pause.kind === "paused_for_cycles") {
    if (cycles !== null) {
      return Result.fail(invalid(PAUSE_REASONS.cannotUpdateCycles, "The subscription is already paused for a number of cycles, which cannot be changed"))
    }
    return Result.succeed({ status: "paused", schedule: restartAt(s, s.pause.pausedAt, { kind: "paused_indefinitely", pausedAt: s.pause.pausedAt }) })
  }
  const { calendar } = context
  // Occurrences charged before the next possible charge date are payments already created: the
  // pause starts at the first one that is not.
  const next = Math.max(s.fromIndex, firstOccurrenceOnOrAfter(s.recurrence, calendar, toDayNumber(context.next_possible_charge_date)))
  if (s.endIndex !== null && next >= s.endIndex) {
    return Result.fail(invalid(PAUSE_REASONS.cannotBePaused, "Every payment of the subscription has been created already"))
  }
  const consumed: SubscriptionSchedule = { ...s, fromIndex: next }
  if (cycles === null) {
    return Result.succeed({ status: "paused", schedule: restartAt(consumed, next, { kind: "paused_indefinitely", pausedAt: next }) })
  }
  const earliest = toDayNumber(context.earliest_charge_date_after_pause ?? context.next_possible_charge_date)
  const minimum = Math.max(1, firstOccurrenceOnOrAfter(s.recurrence, calendar, earliest) - next)
  if (cycles < minimum) {
    return Result.fail(invalid(PAUSE_REASONS.cyclesTooFew, `pause_cycles must be greater than or equal to ${minimum}`))
  }
  return Result.succeed({
    status: "paused",
    schedule: restartAt(consumed, next + cycles, { kind: "paused_for_cycles", pausedAt: next, cycles })
  })
}

/**
 * Resumes a paused subscription (POST /subscriptions/:id/actions/resume): the next payment is
 * charged on `earliest_charge_date_after_resume`, the first occurrence the mandate can still
 * reach, and a count subscription keeps every payment it had left.
 */
export const resumeSubscription = (
  sub: PausableSubscription,
  input: unknown,
  context: PauseContext
): Result.Result<PausableSubscription, ValidationFailed | InvalidState> => {
  const decoded = decodeResume(input)
  if (Result.isFailure(decoded)) return Result.fail(decoded.failure)
  if (sub.status !== "paused" || sub.schedule.pause.kind === "active") {
    return Result.fail(invalid(PAUSE_REASONS.notPaused, "The subscription is not paused"))
  }
  const s = sub.schedule
  const k = resumeOccurrence(s, context.calendar, context.next_possible_charge_date)
  return Result.succeed({ status: "active", schedule: restartAt(s, k, { kind: "active" }) })
}
