import { civilOfDayNumber, dayOfCivil, LocalDate, monthIndexOfCivil, SCHEMES, toDayNumber } from "@paykit/core"
import { Schema } from "effect"
import type { BusinessCalendar } from "./calendar.ts"
import { calendarFor } from "./calendar-for.ts"

/**
 * The part of a business calendar the charge-date engine needs: the day-number verbs only, so the
 * hot loops never parse or format a date string.
 */
export type DayCalendar = Pick<
  BusinessCalendar,
  "isBusinessDayNumber" | "rollForwardDay" | "rollBackwardDay" | "addBusinessDaysToDay"
>

// ---------------------------------------------------------------------------------------------
// Day numbers <-> `YYYY-MM-DD` without allocating anything but the result string.

const TWO_DIGITS: ReadonlyArray<string> = Array.from({ length: 32 }, (_, i) => (i < 10 ? `0${i}` : `${i}`))

/**
 * Formats a day number as `YYYY-MM-DD`, with core's civil-from-days read packed (no parts object
 * per call): the result string is the one allocation per charge date the engine allows itself.
 */
export const formatDayNumber = (n: number): LocalDate => {
  const civil = civilOfDayNumber(n)
  const monthIndex = monthIndexOfCivil(civil)
  const year = Math.floor(monthIndex / 12)
  const y = year >= 1000 ? `${year}` : `${year}`.padStart(4, "0")
  return `${y}-${TWO_DIGITS[monthIndex - year * 12 + 1]}-${TWO_DIGITS[civil - monthIndex * 32]}` as LocalDate
}

/** The month index (`year * 12 + month - 1`) of a day number, without allocating. */
export const monthIndexOfDayNumber = (n: number): number => monthIndexOfCivil(civilOfDayNumber(n))

/** The day of month of a day number. */
export const dayOfMonthOfDayNumber = (n: number): number => dayOfCivil(civilOfDayNumber(n))

// ---------------------------------------------------------------------------------------------
// The mandate's next possible charge date

const NonNegativeInt = Schema.Int.check(
  Schema.makeFilter((n: number) => n >= 0, { message: "must be a whole number of working days, 0 or more" })
)

/** What `next_possible_charge_date` depends on: the scheme's calendar, today, and the notice. */
export const ChargeDateQuery = Schema.Struct({
  scheme: Schema.Literals(SCHEMES),
  today: LocalDate,
  /** Working days the scheme needs between submission and collection (advance notice included). */
  minimumAdvanceNotice: NonNegativeInt
})
export type ChargeDateQuery = typeof ChargeDateQuery.Type

/**
 * The first day a new payment could be charged: `minimumAdvanceNotice` working days after today,
 * today itself counting as the first when it is a working day. On a weekend or holiday the count
 * starts from the next working day, because nothing is submitted to the scheme before then. With
 * no notice it is today rolled forward.
 */
export const nextPossibleChargeDateOn = (calendar: DayCalendar, today: LocalDate, minimumAdvanceNotice: number): LocalDate =>
  formatDayNumber(calendar.addBusinessDaysToDay(toDayNumber(today), minimumAdvanceNotice))

/** `nextPossibleChargeDateOn` with the calendar of the scheme. */
export const nextPossibleChargeDate = (query: ChargeDateQuery): LocalDate =>
  nextPossibleChargeDateOn(calendarFor(query.scheme), query.today, query.minimumAdvanceNotice)

