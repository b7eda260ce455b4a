import { dayNumberOf, daysInMonth } from "@paykit/core"
import type { LocalDate } from "@paykit/core"
import type { DayCalendar } from "./charge-dates.ts"
import { formatDayNumber, monthIndexOfDayNumber } from "./charge-dates.ts"

/**
 * A subscription's recurrence, compiled to integers. Occurrence `k` (k = 0, 1, 2, ...) has a
 * nominal date computed directly from `k` (never by stepping from the previous one), and a charge
 * date that is the nominal date rolled to a business day. Occurrence 0 is the first charge.
 *
 * - weekly: nominal(k) = `anchor + k * stepDays`.
 * - monthly and yearly: nominal(k) is in month index `anchor + k * stepMonths`
 *   (`year * 12 + month - 1`), on `day`, clamped to the month's length; `day` -1 is the month's
 *   last day. Computing from the anchor keeps the original day: a subscription started on the
 *   31st charges on Jan 31, Feb 28, Mar 31, never drifting to the 28th.
 */
export type Recurrence =
  | {
      readonly unit: "weekly"
      /** Day number of occurrence 0. */
      readonly anchor: number
      readonly stepDays: number
    }
  | {
      readonly unit: "monthly" | "yearly"
      /** Month index of occurrence 0. */
      readonly anchor: number
      readonly stepMonths: number
      /** 1..31, or -1 for the last day of the month. */
      readonly day: number
    }

/** Day -1 rolls backwards (stays in its month); every other day rolls forward. */
export const rollsBackward = (r: Recurrence): boolean => r.unit !== "weekly" && r.day === -1

/** The nominal (unrolled) day number of occurrence `k`. */
export const nominalDay = (r: Recurrence, k: number): number => {
  if (r.unit === "weekly") return r.anchor + k * r.stepDays
  const mi = r.anchor + k * r.stepMonths
  const year = Math.floor(mi / 12)
  const month = mi - year * 12 + 1
  const length = daysInMonth(year, month)
  return dayNumberOf(year, month, r.day === -1 || r.day > length ? length : r.day)
}

/** The charge day number of occurrence `k`: its nominal date rolled on the calendar. */
export const chargeDay = (r: Recurrence, calendar: DayCalendar, k: number): number =>
  rollsBackward(r) ? calendar.rollBackwardDay(nominalDay(r, k)) : calendar.rollForwardDay(nominalDay(r, k))

/**
 * The first occurrence whose charge date is on or after `day`, found by arithmetic: an estimate
 * from the distance in days or months, then at most a step or two of correction for rolling
 * (a nominal date just before `day` can roll forward onto or past it). The cost does not depend on
 * how old the subscription is.
 */
export const firstOccurrenceOnOrAfter = (r: Recurrence, calendar: DayCalendar, day: number): number => {
  let k: number
  if (r.unit === "weekly") {
    k = Math.ceil((day - r.anchor) / r.stepDays)
  } else {
    k = Math.ceil((monthIndexOfDayNumber(day) - r.anchor) / r.stepMonths)
  }
  if (k < 0) k = 0
  while (k > 0 && chargeDay(r, calendar, k - 1) >= day) k--
  while (chargeDay(r, calendar, k) < day) k++
  return k
}

/**
 * Where charges stop: before occurrence `endIndex` (from a count), and strictly before the day
 * number `endDay` (an end date: "on or after this date no further payments are created").
 */
export interface Bounds {
  readonly endIndex: number | null
  readonly endDay: number | null
}

export const UNBOUNDED: Bounds = { endIndex: null, endDay: null }

/**
 * Writes the charge dates of occurrences from `fromIndex` on into `out`, at most `limit` of them,
 * stopping at the bounds. Returns how many were written. The loop allocates nothing but the date
 * strings; `out` is reused by callers that plan many subscriptions.
 */
export const writeChargeDates = (
  r: Recurrence,
  calendar: DayCalendar,
  fromIndex: number,
  bounds: Bounds,
  limit: number,
  out: Array<LocalDate>
): number => {
  const backward = rollsBackward(r)
  const lastIndex = bounds.endIndex === null ? Number.POSITIVE_INFINITY : bounds.endIndex
  const endDay = bounds.endDay === null ? Number.POSITIVE_INFINITY : bounds.endDay
  let written = 0
  for (let k = fromIndex; k < lastIndex && written < limit; k++) {
    const nominal = nominalDay(r, k)
    const charge = backward ? calendar.rollBackwardDay(nominal) : calendar.rollForwardDay(nominal)
    if (charge >= endDay) break
    out[written++] = formatDayNumber(charge)
  }
  return written
}

/** The next `limit` charge dates on or after `from` (a day number), within the bounds. */
export const nextChargeDates = (
  r: Recurrence,
  calendar: DayCalendar,
  from: number,
  bounds: Bounds,
  limit: number,
  minIndex = 0
): Array<LocalDate> => {
  const out: Array<LocalDate> = []
  const k = Math.max(minIndex, firstOccurrenceOnOrAfter(r, calendar, from))
  writeChargeDates(r, calendar, k, bounds, limit, out)
  return out
}

/**
 * The charge dates from occurrence `fromIndex` on, lazily: an endless subscription is an endless
 * sequence, so take what you need.
 */
export function* chargeDateSequence(
  r: Recurrence,
  calendar: DayCalendar,
  fromIndex: number,
  bounds: Bounds
): Generator<LocalDate, void, undefined> {
  const backward = rollsBackward(r)
  const endDay = bounds.endDay === null ? Number.POSITIVE_INFINITY : bounds.endDay
  for (let k = fromIndex; bounds.endIndex === null || k < bounds.endIndex; k++) {
    const nominal = nominalDay(r, k)
    const charge = backward ? calendar.rollBackwardDay(nominal) : calendar.rollForwardDay(nominal)
    if (charge >= endDay) return
    yield formatDayNumber(charge)
  }
}
