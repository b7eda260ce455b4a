import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date, MONDAY, substituteChain, sundayToMonday, weekdayOnOrAfter, weekendToMonday } from "./rules.ts"

/**
 * Australian national bank holidays, the days BECS and PayTo do not settle on (state holidays such
 * as the King's Birthday or Melbourne Cup are not national and are not here).
 *
 * - New Year's Day, Australia Day (26 January): on a weekend, kept on the Monday.
 * - Australia Day before 1994, when states still moved it: the Monday on or after 26 January.
 * - Good Friday, Easter Monday.
 * - Anzac Day (25 April): on a Sunday kept on the Monday; on a Saturday not replaced.
 * - Christmas Day and Boxing Day, substituted as a chain.
 * - 22 September 2022: National Day of Mourning for Elizabeth II.
 */
export const australiaHolidays = (year: number): ReadonlyArray<number> => {
  const easter = easterSunday(year)
  const days = [
    weekendToMonday(date(year, 1, 1)),
    year >= 1994 ? weekendToMonday(date(year, 1, 26)) : weekdayOnOrAfter(date(year, 1, 26), MONDAY),
    easter - 2,
    easter + 1,
    sundayToMonday(date(year, 4, 25)),
    ...substituteChain([date(year, 12, 25), date(year, 12, 26)])
  ]
  if (year === 2022) days.push(date(2022, 9, 22))
  return days
}

export const australia = (name: string) => makeCalendar(name, australiaHolidays)
