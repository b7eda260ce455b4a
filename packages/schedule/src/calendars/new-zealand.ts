import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date, MONDAY, nthWeekday, substituteChain, weekendToMonday } from "./rules.ts"

/**
 * New Zealand national public holidays (Holidays Act 2003 and the acts before it), the days
 * BECS NZ does not settle on. Regional anniversary days are not national and are not here.
 *
 * - 1 and 2 January, Christmas Day and Boxing Day: Mondayised as chains (a weekend day is kept on
 *   the next weekday still free).
 * - Waitangi Day (6 February) from 1974, and Anzac Day (25 April): Mondayised from 2014 (Holidays
 *   (Full Recognition of Waitangi Day and ANZAC Day) Amendment Act 2013); before, a weekend one was lost.
 * - Good Friday, Easter Monday; the Sovereign's Birthday (first Monday of June); Labour Day
 *   (fourth Monday of October).
 * - Matariki from 2022 on the dates published in Schedule 1 of Te Kāhui o Matariki Public Holiday
 *   Act 2022, which fixes them up to 2052 only: later years have no Matariki here until the law
 *   names their dates.
 * - 26 September 2022: Queen Elizabeth II Memorial Day.
 */
const MATARIKI: ReadonlyArray<readonly [number, number, number]> = [
  [2022, 6, 24], [2023, 7, 14], [2024, 6, 28], [2025, 6, 20], [2026, 7, 10], [2027, 6, 25],
  [2028, 7, 14], [2029, 7, 6], [2030, 6, 21], [2031, 7, 11], [2032, 7, 2], [2033, 6, 24],
  [2034, 7, 7], [2035, 6, 29], [2036, 7, 18], [2037, 7, 10], [2038, 6, 25], [2039, 7, 15],
  [2040, 7, 6], [2041, 7, 19], [2042, 7, 11], [2043, 7, 3], [2044, 6, 24], [2045, 7, 7],
  [2046, 6, 29], [2047, 7, 19], [2048, 7, 3], [2049, 6, 25], [2050, 7, 15], [2051, 6, 30],
  [2052, 6, 21]
]

export const newZealandHolidays = (year: number): ReadonlyArray<number> => {
  const easter = easterSunday(year)
  const mondayised = (n: number): number => (year >= 2014 ? weekendToMonday(n) : n)
  const days = [
    ...substituteChain([date(year, 1, 1), date(year, 1, 2)]),
    easter - 2,
    easter + 1,
    mondayised(date(year, 4, 25)),
    nthWeekday(year, 6, MONDAY, 1),
    nthWeekday(year, 10, MONDAY, 4),
    ...substituteChain([date(year, 12, 25), date(year, 12, 26)])
  ]
  if (year >= 1974) days.push(mondayised(date(year, 2, 6)))
  for (const [y, m, d] of MATARIKI) if (y === year) days.push(date(y, m, d))
  if (year === 2022) days.push(date(2022, 9, 26))
  return days
}

export const newZealand = (name: string) => makeCalendar(name, newZealandHolidays)
