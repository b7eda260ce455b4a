import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date } from "./rules.ts"

/**
 * TARGET/TARGET2/T2 closing days (ECB), on which SEPA settles. No weekend substitutes.
 *
 * - From 2000: New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December.
 * - 1999, TARGET's first year: only New Year's Day and Christmas Day, plus 31 December (Y2K).
 * - 31 December 2001 (euro cash changeover) was an extra closing day.
 * - Before 1999 TARGET did not exist; those years follow the 2000 rules, a proleptic calendar so
 *   date arithmetic over old dates stays meaningful rather than a claim about any real system.
 */
export const targetHolidays = (year: number): ReadonlyArray<number> => {
  if (year === 1999) return [date(1999, 1, 1), date(1999, 12, 25), date(1999, 12, 31)]
  const easter = easterSunday(year)
  const days = [date(year, 1, 1), easter - 2, easter + 1, date(year, 5, 1), date(year, 12, 25), date(year, 12, 26)]
  if (year === 2001) days.push(date(2001, 12, 31))
  return days
}

export const target = (name: string) => makeCalendar(name, targetHolidays)
