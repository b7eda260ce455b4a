import { dayNumberOf, daysInMonth, isoWeekdayOfDayNumber } from "@paykit/core"

/**
 * The building blocks every calendar is written in: fixed dates, n-th weekdays of a month and
 * the ways countries move a holiday off a weekend. All work on day numbers.
 */

export const MONDAY = 1
export const TUESDAY = 2
export const WEDNESDAY = 3
export const THURSDAY = 4
export const FRIDAY = 5
export const SATURDAY = 6
export const SUNDAY = 7

/** A calendar's rule: every closing day of a year (weekend days and duplicates allowed). */
export type HolidayRule = (year: number) => ReadonlyArray<number>

export const date = dayNumberOf

export const weekdayOf = isoWeekdayOfDayNumber

export const isWeekend = (n: number): boolean => isoWeekdayOfDayNumber(n) >= SATURDAY

/** The first day on or after `n` that is the given ISO weekday. */
export const weekdayOnOrAfter = (n: number, weekday: number): number =>
  n + ((weekday - isoWeekdayOfDayNumber(n) + 7) % 7)

/** The last day on or before `n` that is the given ISO weekday. */
export const weekdayOnOrBefore = (n: number, weekday: number): number =>
  n - ((isoWeekdayOfDayNumber(n) - weekday + 7) % 7)

/** The `nth` (1-based) given weekday of a month; `nth = -1` is the month's last one. */
export const nthWeekday = (year: number, month: number, weekday: number, nth: number): number =>
  nth > 0
    ? weekdayOnOrAfter(dayNumberOf(year, month, 1), weekday) + 7 * (nth - 1)
    : weekdayOnOrBefore(dayNumberOf(year, month, daysInMonth(year, month)), weekday) + 7 * (nth + 1)

/** A Saturday or Sunday holiday is kept on the following Monday (Mondayisation). */
export const weekendToMonday = (n: number): number => (isWeekend(n) ? weekdayOnOrAfter(n, MONDAY) : n)

/** A Sunday holiday is kept on Monday; a Saturday one is simply lost (the Federal Reserve's rule). */
export const sundayToMonday = (n: number): number => (isoWeekdayOfDayNumber(n) === SUNDAY ? n + 1 : n)

/**
 * Holidays that substitute as a chain (Christmas and Boxing Day, 1 and 2 January): in date order,
 * a holiday on a weekend, or on a day an earlier one of the chain already took, moves to the next
 * weekday still free. Christmas on a Saturday gives Monday 27 and Tuesday 28; on a Sunday, Boxing
 * Day stays on Monday 26 and Christmas is kept on Tuesday 27 — the same two days.
 */
export const substituteChain = (days: ReadonlyArray<number>): ReadonlyArray<number> => {
  const taken: Array<number> = []
  for (const day of [...days].sort((a, b) => a - b)) {
    let kept = day
    while (isWeekend(kept) || taken.includes(kept)) kept += 1
    taken.push(kept)
  }
  return taken
}
