import { dayNumberOf, fromDayNumber, isoWeekdayOfDayNumber, partsOfDayNumber, toDayNumber } from "@paykit/core"
import type { LocalDate } from "@paykit/core"
import type { BusinessCalendar } from "../calendar.ts"
import type { HolidayRule } from "./rules.ts"

/**
 * One year of a calendar, built once on first use: a flag per day and the running count of
 * business days, so that "is it open", "how many between" and "the k-th business day" are all
 * array reads or a binary search over at most 366 entries.
 */
interface YearTable {
  readonly year: number
  /** Day number of 1 January. */
  readonly start: number
  /** Day number of 1 January of the next year. */
  readonly end: number
  /** 1 on a business day, by offset from `start`. */
  readonly open: Uint8Array
  /** `rank[i]` = business days at offsets before `i`; `rank.length` is the year's length + 1. */
  readonly rank: Int32Array
  readonly total: number
  readonly holidays: ReadonlyArray<LocalDate>
}

const buildYear = (year: number, rule: HolidayRule): YearTable => {
  const start = dayNumberOf(year, 1, 1)
  const end = dayNumberOf(year + 1, 1, 1)
  const length = end - start
  const open = new Uint8Array(length)
  for (let i = 0; i < length; i++) open[i] = isoWeekdayOfDayNumber(start + i) <= 5 ? 1 : 0
  const closed: Array<number> = []
  for (const day of rule(year)) {
    const i = day - start
    // A rule speaks for its own year only; weekend entries change nothing and are not listed.
    if (i >= 0 && i < length && open[i] === 1) {
      open[i] = 0
      closed.push(day)
    }
  }
  closed.sort((a, b) => a - b)
  const rank = new Int32Array(length + 1)
  for (let i = 0; i < length; i++) rank[i + 1] = (rank[i] ?? 0) + (open[i] ?? 0)
  return { year, start, end, open, rank, total: rank[length] ?? 0, holidays: closed.map(fromDayNumber) }
}

/**
 * The years most dates fall in get array lookups instead of date arithmetic: a shared table of
 * the year of every day, and per calendar the running count of business days before each year,
 * which makes `businessDaysBetween` O(1) there. Outside the window everything still works,
 * through a map and a loop over the years between.
 */
const WINDOW_FIRST_YEAR = 1970
const WINDOW_END_YEAR = 2101
const WINDOW_START = dayNumberOf(WINDOW_FIRST_YEAR, 1, 1)
const WINDOW_END = dayNumberOf(WINDOW_END_YEAR, 1, 1)
const WINDOW_YEARS = WINDOW_END_YEAR - WINDOW_FIRST_YEAR
const YEAR_OF_DAY = (() => {
  const years = new Int16Array(WINDOW_END - WINDOW_START)
  for (let y = WINDOW_FIRST_YEAR; y < WINDOW_END_YEAR; y++) {
    years.fill(y, dayNumberOf(y, 1, 1) - WINDOW_START, dayNumberOf(y + 1, 1, 1) - WINDOW_START)
  }
  return years
})()

const yearOfDay = (n: number): number => {
  const i = n - WINDOW_START
  return i >= 0 && i < YEAR_OF_DAY.length ? (YEAR_OF_DAY[i] ?? 0) : partsOfDayNumber(n).year
}

const assertCount = (count: number): void => {
  // A fractional or unsafe count is a programming error, not a date the caller could fix.
  if (!Number.isSafeInteger(count)) throw new RangeError(`business day count must be an integer: ${count}`)
}

/** A business-day calendar from its holiday rule: Monday to Friday, less what the rule closes. */
export const makeCalendar = (name: string, rule: HolidayRule): BusinessCalendar => {
  const windowTables: Array<YearTable | undefined> = new Array<YearTable | undefined>(WINDOW_YEARS)
  const otherTables = new Map<number, YearTable>()
  const tableOfYear = (year: number): YearTable => {
    const i = year - WINDOW_FIRST_YEAR
    const inWindow = i >= 0 && i < WINDOW_YEARS
    let t = inWindow ? windowTables[i] : otherTables.get(year)
    if (t === undefined) {
      t = buildYear(year, rule)
      if (inWindow) windowTables[i] = t
      else otherTables.set(year, t)
    }
    return t
  }
  // Business days in the window's years before each year; built on the first count that needs it.
  let businessDaysBeforeYear: Int32Array | undefined
  const beforeYear = (year: number): number => {
    if (businessDaysBeforeYear === undefined) {
      const before = new Int32Array(WINDOW_YEARS + 1)
      for (let i = 0; i < WINDOW_YEARS; i++) before[i + 1] = (before[i] ?? 0) + tableOfYear(WINDOW_FIRST_YEAR + i).total
      businessDaysBeforeYear = before
    }
    return businessDaysBeforeYear[year - WINDOW_FIRST_YEAR] ?? 0
  }
  const inWindow = (year: number): boolean => year >= WINDOW_FIRST_YEAR && year < WINDOW_END_YEAR
  // Most callers walk dates in order, so the last table used answers almost every lookup.
  let last = tableOfYear(2000)
  const tableOf = (n: number): YearTable => {
    if (n >= last.start && n < last.end) return last
    last = tableOfYear(yearOfDay(n))
    return last
  }

  const isBusinessDayNumber = (n: number): boolean => {
    const t = tableOf(n)
    return t.open[n - t.start] === 1
  }

  const rollForwardDay = (n: number): number => {
    let d = n
    let t = tableOf(d)
    while (t.open[d - t.start] !== 1) {
      d += 1
      if (d >= t.end) t = tableOf(d)
    }
    return d
  }

  const rollBackwardDay = (n: number): number => {
    let d = n
    let t = tableOf(d)
    while (t.open[d - t.start] !== 1) {
      d -= 1
      if (d < t.start) t = tableOf(d)
    }
    return d
  }

  /** Offset of the k-th (1-based, 1 <= k <= total) business day of a year. */
  const offsetOfRank = (t: YearTable, k: number): number => {
    let lo = 0
    let hi = t.end - t.start - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((t.rank[mid + 1] ?? 0) >= k) hi = mid
      else lo = mid + 1
    }
    return lo
  }

  const addBusinessDaysToDay = (n: number, count: number): number => {
    assertCount(count)
    if (count < 0) return subtractBusinessDaysFromDay(n, -count)
    const d = rollForwardDay(n)
    let t = tableOf(d)
    let k = (t.rank[d - t.start] ?? 0) + 1 + count
    while (k > t.total) {
      k -= t.total
      t = tableOfYear(t.year + 1)
    }
    return t.start + offsetOfRank(t, k)
  }

  const subtractBusinessDaysFromDay = (n: number, count: number): number => {
    assertCount(count)
    if (count < 0) return addBusinessDaysToDay(n, -count)
    const d = rollBackwardDay(n)
    let t = tableOf(d)
    let k = (t.rank[d - t.start] ?? 0) + 1 - count
    while (k < 1) {
      t = tableOfYear(t.year - 1)
      k += t.total
    }
    return t.start + offsetOfRank(t, k)
  }

  const businessDaysBetweenDays = (a: number, b: number): number => {
    if (b < a) return -businessDaysBetweenDays(b, a)
    const ta = tableOf(a)
    const tb = tableOf(b)
    const rankB = tb.rank[b - tb.start] ?? 0
    const rankA = ta.rank[a - ta.start] ?? 0
    if (ta === tb) return rankB - rankA
    if (inWindow(ta.year) && inWindow(tb.year)) return beforeYear(tb.year) + rankB - beforeYear(ta.year) - rankA
    let count = ta.total - rankA + rankB
    for (let y = ta.year + 1; y < tb.year; y++) count += tableOfYear(y).total
    return count
  }

  const nextBusinessDayNumber = (n: number): number => rollForwardDay(n + 1)
  const previousBusinessDayNumber = (n: number): number => rollBackwardDay(n - 1)

  return {
    name,
    isBusinessDay: (d) => isBusinessDayNumber(toDayNumber(d)),
    rollForward: (d) => {
      const n = toDayNumber(d)
      const r = rollForwardDay(n)
      return r === n ? d : fromDayNumber(r)
    },
    rollBackward: (d) => {
      const n = toDayNumber(d)
      const r = rollBackwardDay(n)
      return r === n ? d : fromDayNumber(r)
    },
    nextBusinessDay: (d) => fromDayNumber(nextBusinessDayNumber(toDayNumber(d))),
    previousBusinessDay: (d) => fromDayNumber(previousBusinessDayNumber(toDayNumber(d))),
    addBusinessDays: (d, count) => fromDayNumber(addBusinessDaysToDay(toDayNumber(d), count)),
    subtractBusinessDays: (d, count) => fromDayNumber(subtractBusinessDaysFromDay(toDayNumber(d), count)),
    businessDaysBetween: (a, b) => businessDaysBetweenDays(toDayNumber(a), toDayNumber(b)),
    holidays: (year) => tableOfYear(year).holidays,
    isBusinessDayNumber,
    rollForwardDay,
    rollBackwardDay,
    nextBusinessDayNumber,
    previousBusinessDayNumber,
    addBusinessDaysToDay,
    subtractBusinessDaysFromDay,
    businessDaysBetweenDays
  }
}
