import { makeCalendar } from "./make-calendar.ts"
import { date, MONDAY, nthWeekday, sundayToMonday, THURSDAY } from "./rules.ts"

/**
 * Federal Reserve Bank holidays, the days ACH does not settle on. A holiday on Sunday is kept on
 * Monday; one on Saturday is not moved to Friday (the Fed opens that Friday, unlike federal
 * offices).
 *
 * - Washington's Birthday, Memorial Day and Columbus Day on Mondays from 1971 (Uniform Monday
 *   Holiday Act), before on 22 February, 30 May and 12 October.
 * - Veterans Day on the fourth Monday of October 1971-1977, 11 November otherwise.
 * - Martin Luther King Jr. Day (third Monday of January) from 1986.
 * - Juneteenth (19 June) from 2022: signed into law on 17 June 2021, too late for the Fed to
 *   close that year; 2022 was kept on Monday 20 June.
 * - Inauguration Day and national days of mourning are not Fed holidays and are not modelled.
 */
export const federalReserveHolidays = (year: number): ReadonlyArray<number> => {
  const mondayRules = year >= 1971
  const days = [
    date(year, 1, 1),
    mondayRules ? nthWeekday(year, 2, MONDAY, 3) : date(year, 2, 22),
    mondayRules ? nthWeekday(year, 5, MONDAY, -1) : date(year, 5, 30),
    date(year, 7, 4),
    nthWeekday(year, 9, MONDAY, 1),
    mondayRules ? nthWeekday(year, 10, MONDAY, 2) : date(year, 10, 12),
    year >= 1971 && year <= 1977 ? nthWeekday(year, 10, MONDAY, 4) : date(year, 11, 11),
    nthWeekday(year, 11, THURSDAY, 4),
    date(year, 12, 25)
  ]
  if (year >= 1986) days.push(nthWeekday(year, 1, MONDAY, 3))
  if (year >= 2022) days.push(date(year, 6, 19))
  return days.map(sundayToMonday)
}

export const federalReserve = (name: string) => makeCalendar(name, federalReserveHolidays)
