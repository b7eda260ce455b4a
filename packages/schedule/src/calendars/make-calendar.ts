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

const assertCount = (count: number): void => {
  // A fractional or unsafe count is a programming error, not a date the caller could fix.
  if (!Number.isSafeInteger(count)) throw new RangeError(`business day count must be an integer: ${count}`)
}

/** A business-day calendar from its holiday rule: Monday to Friday, less what the rule closes. */
export const makeCalendar = (name: string, rule: HolidayRule): BusinessCalendar => {
  const years = new Map<number, YearTable>()
  const tableOfYear = (year: number): YearTable => {
    let t = years.get(year)
    if (t === undefined) {
      t = buildYear(year, rule)
      years.set(year, t)
    }
    return t
  }
  // Most callers walk dates in order, so the last table used answers almost every lookup.
  let last = tableOfYear(2000)
  const tableOf = (n: number): YearTable => {
    if (n >= last.start && n < last.end) return last
    last = tableOfYear(partsOfDayNumber(n).year)
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
