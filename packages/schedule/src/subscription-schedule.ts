import { SUBSCRIPTION_UPCOMING_PAYMENTS_MAX, toDayNumber } from "@paykit/core"
import type { LocalDate } from "@paykit/core"
import type { DayCalendar } from "./charge-dates.ts"
import { formatDayNumber } from "./charge-dates.ts"
import type { Bounds, Recurrence } from "./subscription-recurrence.ts"
import { chargeDateSequence, chargeDay, firstOccurrenceOnOrAfter, writeChargeDates } from "./subscription-recurrence.ts"

/**
 * Whether and how a schedule is paused. `pausedAt` is the occurrence that was next to be charged
 * when the pause began: a resume never goes back before it, since earlier payments exist already.
 */
export type PauseState =
  | { readonly kind: "active" }
  | { readonly kind: "paused_indefinitely"; readonly pausedAt: number }
  | { readonly kind: "paused_for_cycles"; readonly pausedAt: number; readonly cycles: number }

/**
 * A subscription's schedule as plain data (it can be stored as JSON): the recurrence, the first
 * occurrence still to be charged, and where charges stop. Pausing and resuming move `fromIndex`
 * and, with a count, `endIndex` by the same amount, so the number of payments left never changes.
 */
export interface SubscriptionSchedule {
  readonly recurrence: Recurrence
  /** The first occurrence still to be charged. */
  readonly fromIndex: number
  /** From `count`: the occurrence index at which payments run out (exclusive); null without a count. */
  readonly endIndex: number | null
  /** From `end_date` as given: no charge on or after this day number; null without one. */
  readonly endDay: number | null
  readonly pause: PauseState
}

const boundsOf = (s: SubscriptionSchedule): Bounds => ({ endIndex: s.endIndex, endDay: s.endDay })

/** Every charge date still to come, lazily, in order. Nothing while paused indefinitely. */
export function* scheduleChargeDates(s: SubscriptionSchedule, calendar: DayCalendar): Generator<LocalDate, void, undefined> {
  if (s.pause.kind === "paused_indefinitely") return
  yield* chargeDateSequence(s.recurrence, calendar, s.fromIndex, boundsOf(s))
}

/**
 * The next charge dates on or after `from`, at most `limit`. The first is found by arithmetic,
 * so this costs the same for a subscription started ten years ago as for one started today.
 */
export const chargeDatesFrom = (
  s: SubscriptionSchedule,
  calendar: DayCalendar,
  from: LocalDate,
  limit: number
): Array<LocalDate> => {
  const out: Array<LocalDate> = []
  if (s.pause.kind === "paused_indefinitely") return out
  const k = Math.max(s.fromIndex, firstOccurrenceOnOrAfter(s.recurrence, calendar, toDayNumber(from)))
  writeChargeDates(s.recurrence, calendar, k, boundsOf(s), limit, out)
  return out
}

export interface UpcomingPayment {
  readonly charge_date: LocalDate
  readonly amount: number
}

/**
 * `upcoming_payments`: the next charges on or after `from` (in the engine, the mandate's
 * `next_possible_charge_date`: earlier ones are payments already created), at most
 * `SUBSCRIPTION_UPCOMING_PAYMENTS_MAX`. Empty while paused indefinitely; while paused for cycles
 * it lists the charges after the pause, as the real API does.
 */
export const upcomingPayments = (
  s: SubscriptionSchedule,
  calendar: DayCalendar,
  from: LocalDate,
  amount: number
): ReadonlyArray<UpcomingPayment> =>
  chargeDatesFrom(s, calendar, from, SUBSCRIPTION_UPCOMING_PAYMENTS_MAX).map((charge_date) => ({ charge_date, amount }))

/**
 * `end_date` as the API reports it. With `count`, the charge date of the last payment (it moves
 * when a pause for cycles moves the payments, and is null while paused indefinitely, because the
 * last payment then has no date). Without `count`, the `end_date` given, or null for "forever".
 */
export const reportedEndDate = (s: SubscriptionSchedule, calendar: DayCalendar): LocalDate | null => {
  if (s.endIndex !== null) {
    if (s.pause.kind === "paused_indefinitely") return null
    return formatDayNumber(chargeDay(s.recurrence, calendar, s.endIndex - 1))
  }
  return s.endDay === null ? null : formatDayNumber(s.endDay)
}

/**
 * The occurrence a resume on a day whose `next_possible_charge_date` is `npcd` would charge
 * first: the first one the mandate can still reach, never before the one the pause began at.
 */
export const resumeOccurrence = (s: SubscriptionSchedule, calendar: DayCalendar, npcd: LocalDate): number => {
  const pausedAt = s.pause.kind === "active" ? s.fromIndex : s.pause.pausedAt
  return Math.max(pausedAt, firstOccurrenceOnOrAfter(s.recurrence, calendar, toDayNumber(npcd)))
}

/**
 * `earliest_charge_date_after_resume`: null unless paused; else the charge date of the first
 * payment if the subscription were resumed now. It changes over time, as the spec says, because
 * it depends on today's `next_possible_charge_date`.
 */
export const earliestChargeDateAfterResume = (
  s: SubscriptionSchedule,
  calendar: DayCalendar,
  npcd: LocalDate
): LocalDate | null =>
  s.pause.kind === "active" ? null : formatDayNumber(chargeDay(s.recurrence, calendar, resumeOccurrence(s, calendar, npcd)))

/** Payments left to take from `fromIndex` (null: no count). */
export const remainingPayments = (s: SubscriptionSchedule): number | null =>
  s.endIndex === null ? null : Math.max(0, s.endIndex - s.fromIndex)

/** Moves the schedule so that its next charge is occurrence `k`, keeping the payments left. */
export const restartAt = (s: SubscriptionSchedule, k: number, pause: PauseState): SubscriptionSchedule => ({
  recurrence: s.recurrence,
  fromIndex: k,
  endIndex: s.endIndex === null ? null : k + (s.endIndex - s.fromIndex),
  endDay: s.endDay,
  pause
})

/**
 * Whether the schedule still has an occurrence to charge: the subscription machine's
 * `has_further_payments` (one paused until resumed always has).
 */
export const hasFurtherPayments = (s: SubscriptionSchedule, calendar: DayCalendar): boolean => {
  if (s.pause.kind === "paused_indefinitely") return true
  if (s.endIndex !== null && s.fromIndex >= s.endIndex) return false
  if (s.endDay !== null && chargeDay(s.recurrence, calendar, s.fromIndex) >= s.endDay) return false
  return true
}
