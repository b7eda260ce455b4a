import type { LocalDate, Scheme } from "@paykit/core"

/**
 * A business-day calendar: one small object with the verbs of gocardless/business, the same
 * names for every scheme. Dates in and out are `YYYY-MM-DD` strings.
 */
export interface BusinessCalendar {
  /** The calendar's name, e.g. "bacs" (England and Wales bank days). */
  readonly name: string
  readonly isBusinessDay: (d: LocalDate) => boolean
  /** `d` itself when a business day, else the next business day. */
  readonly rollForward: (d: LocalDate) => LocalDate
  /** `d` itself when a business day, else the previous business day. */
  readonly rollBackward: (d: LocalDate) => LocalDate
  /** The first business day strictly after `d`. */
  readonly nextBusinessDay: (d: LocalDate) => LocalDate
  /** The last business day strictly before `d`. */
  readonly previousBusinessDay: (d: LocalDate) => LocalDate
  /** Rolls forward first, then moves `n` business days on (a negative `n` is `subtractBusinessDays(d, -n)`). */
  readonly addBusinessDays: (d: LocalDate, n: number) => LocalDate
  /** Rolls backward first, then moves `n` business days back (a negative `n` is `addBusinessDays(d, -n)`). */
  readonly subtractBusinessDays: (d: LocalDate, n: number) => LocalDate
  /** Business days from `a` included to `b` excluded (negative when b is before a). */
  readonly businessDaysBetween: (a: LocalDate, b: LocalDate) => number
  /** The closing days of a year that fall on what would otherwise be working days, sorted. */
  readonly holidays: (year: number) => ReadonlyArray<LocalDate>

  // The same verbs on day numbers (days since 1970-01-01, `toDayNumber` of @paykit/core), so hot
  // loops such as the subscription engine's never format or parse a date string.
  readonly isBusinessDayNumber: (n: number) => boolean
  readonly rollForwardDay: (n: number) => number
  readonly rollBackwardDay: (n: number) => number
  readonly nextBusinessDayNumber: (n: number) => number
  readonly previousBusinessDayNumber: (n: number) => number
  readonly addBusinessDaysToDay: (n: number, count: number) => number
  readonly subtractBusinessDaysFromDay: (n: number, count: number) => number
  readonly businessDaysBetweenDays: (a: number, b: number) => number
}

/** The schemes that have a calendar: every scheme of the API. */
export type CalendarScheme = Scheme
