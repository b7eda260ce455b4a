import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date, MONDAY, nthWeekday, substituteChain, weekdayOnOrBefore, weekendToMonday } from "./rules.ts"

/**
 * Payments Canada's holidays, on which PAD items are not exchanged or settled: the national
 * non-juridical days of the Bills of Exchange Act. A fixed-date holiday on a weekend is kept on
 * the Monday; Christmas and Boxing Day substitute as a chain. Provincial days (Civic Holiday,
 * Family Day) are not here.
 *
 * - New Year's Day, Good Friday, Victoria Day (the Monday on or before 24 May), Canada Day
 *   (1 July), Labour Day (first Monday of September), Thanksgiving (second Monday of October),
 *   Remembrance Day (11 November), Christmas Day, Boxing Day.
 * - National Day for Truth and Reconciliation (30 September) from 2021, when Bill C-5 added it
 *   to the Bills of Exchange Act.
 * - The 19 September 2022 federal day of mourning is not here: Payments Canada's systems ran.
 */
export const canadaHolidays = (year: number): ReadonlyArray<number> => {
  const easter = easterSunday(year)
  const days = [
    weekendToMonday(date(year, 1, 1)),
    easter - 2,
    weekdayOnOrBefore(date(year, 5, 24), MONDAY),
    weekendToMonday(date(year, 7, 1)),
    nthWeekday(year, 9, MONDAY, 1),
    nthWeekday(year, 10, MONDAY, 2),
    weekendToMonday(date(year, 11, 11)),
    ...substituteChain([date(year, 12, 25), date(year, 12, 26)])
  ]
  if (year >= 2021) days.push(weekendToMonday(date(year, 9, 30)))
  return days
}

export const canada = (name: string) => makeCalendar(name, canadaHolidays)
