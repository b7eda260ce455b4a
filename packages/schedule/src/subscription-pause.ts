import { decodeInput, toDayNumber } from "@paykit/core"
import type { InvalidState, LocalDate, Timestamp, ValidationFailed } from "@paykit/core"
import { type SubscriptionPauseFacts, type SubscriptionStatus, subscriptions } from "@paykit/machines"
import { Result } from "effect"
import type { DayCalendar } from "./charge-dates.ts"
import { firstOccurrenceOnOrAfter } from "./subscription-recurrence.ts"
import { SubscriptionPauseRequest, SubscriptionResumeRequest, SUBSCRIPTIONS_ROOT } from "./subscription-request.ts"
import type { SubscriptionSchedule } from "./subscription-schedule.ts"
import { hasFurtherPayments, restartAt, resumeOccurrence } from "./subscription-schedule.ts"

/** The part of a stored subscription that pausing reads and changes. */
export interface PausableSubscription {
  readonly status: SubscriptionStatus
  readonly schedule: SubscriptionSchedule
}

/** A pause the machine accepted, with the facts it was judged on (for the engine to store the move). */
export interface PausedSubscription extends PausableSubscription {
  readonly facts: SubscriptionPauseFacts
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
  /** The instant of the request, which the subscription machine's guards are given. */
  readonly at: Timestamp
}

const decodePause = decodeInput(SubscriptionPauseRequest, SUBSCRIPTIONS_ROOT)
const decodeResume = decodeInput(SubscriptionResumeRequest, SUBSCRIPTIONS_ROOT)


/** The first occurrence not yet charged: those before the next possible charge date are payments already created. */
const nextUncharged = (s: SubscriptionSchedule, context: PauseContext): number =>
  Math.max(s.fromIndex, firstOccurrenceOnOrAfter(s.recurrence, context.calendar, toDayNumber(context.next_possible_charge_date)))

/** The facts of `schedule` that the subscription machine's pause guards judge a request on. */
export const pauseFacts = (s: SubscriptionSchedule, cycles: number | null, context: PauseContext): SubscriptionPauseFacts => {
  const next = nextUncharged(s, context)
  const earliest = toDayNumber(context.earliest_charge_date_after_pause ?? context.next_possible_charge_date)
  return {
    has_end_date: s.endDay !== null,
    pause_kind: s.pause.kind,
    pause_cycles: cycles,
    has_occurrence_to_pause: s.endIndex === null || next < s.endIndex,
    minimum_pause_cycles: Math.max(1, firstOccurrenceOnOrAfter(s.recurrence, context.calendar, earliest) - next)
  }
}

/**
 * The schedule after a pause the machine accepted. Without `pause_cycles` it is paused until
 * resumed: no charge dates, and with a count no `end_date`. With `pause_cycles` = n the next n
 * charges are skipped and every later one moves n cycles on, so a count subscription still
 * takes all its payments and its `end_date` moves too.
 */
export const pausedSchedule = (s: SubscriptionSchedule, cycles: number | null, context: PauseContext): SubscriptionSchedule => {
  if (s.pause.kind !== "active") return restartAt(s, s.pause.pausedAt, { kind: "paused_indefinitely", pausedAt: s.pause.pausedAt })
  const next = nextUncharged(s, context)
  const consumed: SubscriptionSchedule = { ...s, fromIndex: next }
  return cycles === null
    ? restartAt(consumed, next, { kind: "paused_indefinitely", pausedAt: next })
    : restartAt(consumed, next + cycles, { kind: "paused_for_cycles", pausedAt: next, cycles })
}

/**
 * Pauses a subscription (POST /subscriptions/:id/actions/pause): the request is decoded, the
 * subscription machine's guards decide whether it may pause (see `pauseFacts`), and the schedule
 * moves as `pausedSchedule` says.
 */
export const pauseSubscription = (
  sub: PausableSubscription,
  input: unknown,
  context: PauseContext
): Result.Result<PausedSubscription, ValidationFailed | InvalidState> => {
  const decoded = decodePause(input)
  return Result.isFailure(decoded) ? Result.fail(decoded.failure) : pauseSubscriptionRequest(sub, decoded.success, context)
}

/** `pauseSubscription` of a request already decoded (at the edge, by the engine's caller). */
export const pauseSubscriptionRequest = (
  sub: PausableSubscription,
  request: SubscriptionPauseRequest,
  context: PauseContext
): Result.Result<PausedSubscription, InvalidState> => {
  const cycles = request.pause_cycles ?? null
  const facts = pauseFacts(sub.schedule, cycles, context)
  const entry = subscriptions.transition(sub.status, "pause", {
    at: context.at,
    cause: { origin: "api", cause: "subscription_paused" },
    context: { has_further_payments: hasFurtherPayments(sub.schedule, context.calendar), pause: facts }
  })
  return Result.map(entry, (e) => ({ status: e.to, schedule: pausedSchedule(sub.schedule, cycles, context), facts }))
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
  return Result.isFailure(decoded) ? Result.fail(decoded.failure) : resumedSubscription(sub, context)
}

/** `resumeSubscription` once its request is decoded: the request carries nothing resuming reads. */
export const resumedSubscription = (sub: PausableSubscription, context: PauseContext): Result.Result<PausableSubscription, InvalidState> => {
  const s = sub.schedule
  // The subscription machine decides: only a paused subscription resumes (`subscription_not_paused`).
  const entry = subscriptions.transition(sub.status, "resume", {
    at: context.at,
    cause: { origin: "api", cause: "subscription_resumed" },
    context: { has_further_payments: hasFurtherPayments(s, context.calendar), pause: null }
  })
  return Result.map(entry, (e) => ({
    status: e.to,
    schedule: restartAt(s, resumeOccurrence(s, context.calendar, context.next_possible_charge_date), { kind: "active" })
  }))
}
