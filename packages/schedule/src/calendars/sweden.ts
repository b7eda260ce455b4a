import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date, FRIDAY, weekdayOnOrAfter } from "./rules.ts"

/**
 * Swedish bank days (Bankgirot, Autogiro): the public holidays of the Act on Public Holidays
 * (1989:253) plus the eves banks close on. No weekend substitutes in Sweden.
 *
 * - New Year's Day, Epiphany (6 January), Good Friday, Easter Monday, 1 May, Ascension Day,
 *   Christmas Day and Boxing Day.
 * - Whit Monday until 2004; replaced from 2005 by National Day, 6 June.
 * - Midsummer Eve (the Friday from 19 to 25 June), Christmas Eve and New Year's Eve: not public
 *   holidays in law, but closed bank days.
 * - Midsummer Day and All Saints' Day always fall on a Saturday and change nothing.
 */
export const swedenHolidays = (year: number): ReadonlyArray<number> => {
  const easter = easterSunday(year)
  const days = [
    date(year, 1, 1),
    date(year, 1, 6),
    easter - 2,
    easter + 1,
    date(year, 5, 1),
    easter + 39,
    weekdayOnOrAfter(date(year, 6, 19), FRIDAY),
    date(year, 12, 24),
    date(year, 12, 25),
    date(year, 12, 26),
    date(year, 12, 31)
  ]
  days.push(year >= 2005 ? date(year, 6, 6) : easter + 50)
  return days
}

export const sweden = (name: string) => makeCalendar(name, swedenHolidays)
