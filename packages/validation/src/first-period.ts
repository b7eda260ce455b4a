import { type LocalDate, addDays, addMonths, dateParts, isoWeekday, makeLocalDate, toDayNumber } from "@paykit/core"

/**
 * The first period of a periodic limit (billing request `constraints.periodic_limits`).
 *
 * With `creation_date` alignment the periods follow the mandate's start date, so the first one is
 * a full period. With `calendar` alignment they follow the calendar (weeks Monday to Sunday,
 * months 1st to last day, years 1 January to 31 December), so a mandate starting mid-period gets a
 * partial first period whose limit is reduced in proportion to the days it covers.
 */

export const PERIODS = ["day", "week", "month", "year", "flexible"] as const
export type Period = (typeof PERIODS)[number]
export type FixedPeriod = Exclude<Period, "flexible">

export const ALIGNMENTS = ["calendar", "creation_date"] as const
export type Alignment = (typeof ALIGNMENTS)[number]

export interface FirstPeriod {
  /** The first day of the whole period that the start date falls in. */
  readonly periodStart: LocalDate
  /** The last day of the first period (inclusive). */
  readonly periodEnd: LocalDate
  /** Days of the first period from the start date to `periodEnd`, inclusive. */
  readonly coveredDays: number
  /** Days of the whole period, inclusive. */
  readonly periodDays: number
}

const inclusiveDays = (from: LocalDate, to: LocalDate): number => toDayNumber(to) - toDayNumber(from) + 1

const calendarPeriodStart = (period: FixedPeriod, date: LocalDate): LocalDate => {
  const { year, month } = dateParts(date)
  switch (period) {
    case "day":
      return date
    case "week":
      return addDays(date, 1 - isoWeekday(date))
    case "month":
      return makeLocalDate(year, month, 1)
    case "year":
      return makeLocalDate(year, 1, 1)
  }
}

/** The day after the period that begins on `start` ends. */
const nextPeriodStart = (period: FixedPeriod, start: LocalDate): LocalDate => {
  switch (period) {
    case "day":
      return addDays(start, 1)
    case "week":
      return addDays(start, 7)
    case "month":
      return addMonths(start, 1)
    case "year":
      return addMonths(start, 12)
  }
}

/** The first period of a fixed-period limit whose mandate starts on `startDate`. */
export const firstPeriod = (period: FixedPeriod, alignment: Alignment, startDate: LocalDate): FirstPeriod => {
  const periodStart = alignment === "calendar" ? calendarPeriodStart(period, startDate) : startDate
  const periodEnd = addDays(nextPeriodStart(period, periodStart), -1)
  return {
    periodStart,
    periodEnd,
    coveredDays: inclusiveDays(startDate, periodEnd),
    periodDays: inclusiveDays(periodStart, periodEnd)
  }
}

/**
 * `limit * coveredDays / periodDays`, rounded down to a whole number.
 *
 * Rounding rule: always down (floor), so the reduced limit never exceeds the exact proportion and
 * the payer is never charged more than the share of the period they authorised. The product is
 * taken in bigint, so the result is exact for every safe-integer limit.
 */
export const proportionalLimit = (limit: number, coveredDays: number, periodDays: number): number => {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`not a limit: ${limit}`)
  if (!Number.isSafeInteger(periodDays) || periodDays <= 0 || !Number.isSafeInteger(coveredDays) || coveredDays < 0 || coveredDays > periodDays) {
    throw new RangeError(`not a part of a period: ${coveredDays}/${periodDays}`)
  }
  return Number((BigInt(limit) * BigInt(coveredDays)) / BigInt(periodDays))
}

/**
 * The limit that applies to the first period (an amount in minor units for `max_total_amount`, a
 * count for `max_payments`): the whole limit for `flexible` periods and `creation_date`
 * alignment, the proportionally reduced one (see `proportionalLimit`) for a partial calendar
 * period.
 */
export const firstPeriodLimit = (limit: number, period: Period, alignment: Alignment, startDate: LocalDate): number => {
  if (period === "flexible") return proportionalLimit(limit, 1, 1)
  const first = firstPeriod(period, alignment, startDate)
  return proportionalLimit(limit, first.coveredDays, first.periodDays)
}
