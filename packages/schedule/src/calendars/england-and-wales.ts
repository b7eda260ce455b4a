import { easterSunday } from "./easter.ts"
import { makeCalendar } from "./make-calendar.ts"
import { date, MONDAY, nthWeekday, substituteChain, weekendToMonday } from "./rules.ts"

/**
 * England and Wales bank holidays (Banking and Financial Dealings Act 1971 and the royal
 * proclamations made under it), the days Bacs and Faster Payments settle on.
 */

/** Holidays moved or added by proclamation: the years they replace a rule's day, and the extra days. */
const EARLY_MAY_MOVED: ReadonlyMap<number, readonly [number, number]> = new Map([
  [1995, [5, 8]], // 50th anniversary of VE Day: Monday 8 May instead of the 1st
  [2020, [5, 8]] // 75th anniversary of VE Day: Friday 8 May instead of Monday the 4th
])

const SPRING_MOVED: ReadonlyMap<number, readonly [number, number]> = new Map([
  [1977, [6, 6]], // Silver Jubilee weekend
  [2002, [6, 4]], // Golden Jubilee
  [2012, [6, 4]], // Diamond Jubilee
  [2022, [6, 2]] // Platinum Jubilee
])

const ONE_OFF_DAYS: ReadonlyArray<readonly [number, number, number]> = [
  [1977, 6, 7], // Silver Jubilee of Elizabeth II
  [1981, 7, 29], // Wedding of the Prince of Wales
  [1999, 12, 31], // Millennium
  [2002, 6, 3], // Golden Jubilee
  [2011, 4, 29], // Wedding of Prince William
  [2012, 6, 5], // Diamond Jubilee
  [2022, 6, 3], // Platinum Jubilee
  [2022, 9, 19], // State Funeral of Elizabeth II
  [2023, 5, 8] // Coronation of Charles III
]

const moved = (table: ReadonlyMap<number, readonly [number, number]>, year: number, otherwise: number): number => {
  const md = table.get(year)
  return md === undefined ? otherwise : date(year, md[0], md[1])
}

export const englandAndWalesHolidays = (year: number): ReadonlyArray<number> => {
  const easter = easterSunday(year)
  const days: Array<number> = [easter - 2, easter + 1]
  // New Year's Day became a bank holiday in 1974.
  if (year >= 1974) days.push(weekendToMonday(date(year, 1, 1)))
  // The early May bank holiday was first kept in 1978.
  if (year >= 1978) days.push(moved(EARLY_MAY_MOVED, year, nthWeekday(year, 5, MONDAY, 1)))
  // Spring and summer holidays on the last Mondays of May and August: statutory from 1971,
  // and already kept on those days by proclamation during the 1965-1970 trial.
  days.push(moved(SPRING_MOVED, year, nthWeekday(year, 5, MONDAY, -1)))
  days.push(nthWeekday(year, 8, MONDAY, -1))
  days.push(...substituteChain([date(year, 12, 25), date(year, 12, 26)]))
  for (const [y, m, d] of ONE_OFF_DAYS) if (y === year) days.push(date(y, m, d))
  return days
}

export const englandAndWales = (name: string) => makeCalendar(name, englandAndWalesHolidays)
