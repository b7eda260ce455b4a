import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date } from "./rules.ts"

/**
 * Danish bank days (Betalingsservice settles on Danmarks Nationalbank's banking days). No
 * weekend substitutes in Denmark.
 *
 * - Public holidays: New Year's Day, Maundy Thursday, Good Friday, Easter Monday, Ascension Day,
 *   Whit Monday, Christmas Day and Boxing Day.
 * - Great Prayer Day (the fourth Friday after Easter) until 2023; abolished from 2024.
 * - Bank holidays that are not public holidays: the Friday after Ascension, Constitution Day
 *   (5 June) and New Year's Eve, applied to every year as today's rules (older years are rules
 *   projected backwards, not a record of each year's closures).
 * - Christmas Eve from 2020 only: GoCardless's published calendar settles on 24 December 2018 and
 *   2019 (Monday, Tuesday) and closes it from 2020 on, when the banks' sector made it a closing day.
 */
export const denmarkHolidays = (year: number): ReadonlyArray<number> => {
  const easter = easterSunday(year)
  const days = [
    date(year, 1, 1),
    easter - 3,
    easter - 2,
    easter + 1,
    easter + 39,
    easter + 40,
    easter + 50,
    date(year, 6, 5),
    date(year, 12, 25),
    date(year, 12, 26),
    date(year, 12, 31)
  ]
  if (year <= 2023) days.push(easter + 26)
  if (year >= 2020) days.push(date(year, 12, 24))
  return days
}

export const denmark = (name: string) => makeCalendar(name, denmarkHolidays)
