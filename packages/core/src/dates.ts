import { Clock, Effect, type Fiber, Schema } from "effect"

/**
 * Calendar dates (`YYYY-MM-DD`, no time zone) and UTC timestamps (millisecond precision).
 *
 * A `LocalDate` is kept as its string form because that is what every API payload and SQL
 * `date` column holds; arithmetic goes through day numbers (days since 1970-01-01), which are
 * exact integers and avoid `Date` and its time zones entirely.
 */

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

export const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : (MONTH_LENGTHS[month - 1] ?? Number.NaN)

/** The number the digits of `s` from `start` to `end` spell, or -1 if any is not a digit. */
const digitsAt = (s: string, start: number, end: number): number => {
  let value = 0
  for (let i = start; i < end; i++) {
    const digit = s.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

const DASH = 45

// Every date of every stored record is checked on each read and write: read off the characters,
// not matched with a pattern's captures.
const isRealDate = (s: string): boolean => {
  if (s.length !== 10 || s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH) return false
  const year = digitsAt(s, 0, 4)
  const month = digitsAt(s, 5, 7)
  const day = digitsAt(s, 8, 10)
  return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

export const LocalDate = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => isRealDate(s), {
      expected: "a date formatted YYYY-MM-DD",
      message: "must be a real calendar date formatted YYYY-MM-DD",
      // Derived arbitraries build dates of 1900-2099 from this pattern (days 1-28: every month has them) instead of
      // filtering random text, which almost never is a date.
      arbitraryConstraint: { patterns: [{ source: "^(19|20)\\d\\d-(0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])$", flags: "" }] }
    })
  ),
  Schema.brand("LocalDate")
).annotate({ identifier: "LocalDate" })
export type LocalDate = typeof LocalDate.Type

export const isLocalDate = (u: unknown): u is LocalDate => typeof u === "string" && isRealDate(u)

/**
 * The dates a request may name, the first and the last. Dates are computed from the ones a
 * request gives: a charge date rolls forward to a working day, a Bacs mandate lapses 13 months
 * after its last payment, a chargeback's window runs weeks past its charge. A LocalDate holds
 * years 0000 to 9999 (`LAST_DAY_NUMBER`), so a request's date keeps ten years clear of the end;
 * and no direct debit, payer or payout predates 1900. Past either end a request is 422 naming
 * the field and this range, where a date computed past 9999 was a defect.
 */
export const INPUT_DATE_FIRST = "1900-01-01" as LocalDate
export const INPUT_DATE_LAST = "9989-12-31" as LocalDate
export const INPUT_DATE_RANGE_MESSAGE = `must be a date from ${INPUT_DATE_FIRST} to ${INPUT_DATE_LAST}`

/** Whether `s` is a real date in the range a request may name. */
export const isInputDate = (s: string): boolean => isRealDate(s) && s >= INPUT_DATE_FIRST && s <= INPUT_DATE_LAST

/** A date a request gives: a real calendar date within `INPUT_DATE_FIRST`..`INPUT_DATE_LAST`. */
export const InputDate = LocalDate.check(
  Schema.makeFilter((d: string) => d >= INPUT_DATE_FIRST && d <= INPUT_DATE_LAST, { message: INPUT_DATE_RANGE_MESSAGE })
).annotate({ identifier: "InputDate" })

export interface DateParts {
  readonly year: number
  readonly month: number
  readonly day: number
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`)
const pad4 = (n: number): string => `${n}`.padStart(4, "0")

/** Builds a date from its parts; throws on an impossible date, which is a programming error here. */
export const makeLocalDate = (year: number, month: number, day: number): LocalDate => {
  const s = `${pad4(year)}-${pad2(month)}-${pad2(day)}`
  if (!isRealDate(s)) throw new RangeError(`not a calendar date: ${year}-${month}-${day}`)
  return s as LocalDate
}

/** Parses untrusted text; undefined unless it is a real calendar date. */
export const parseLocalDate = (s: string): LocalDate | undefined => (isRealDate(s) ? (s as LocalDate) : undefined)

/**
 * A date written in code, such as a literal in a test or an example: checked, a `RangeError` when
 * it is not a real calendar date formatted `YYYY-MM-DD`. Text from outside is decoded with the
 * `LocalDate` Schema instead, which answers a validation error rather than throwing.
 */
export const localDate = (text: string): LocalDate => {
  if (!isRealDate(text)) throw new RangeError(`not a calendar date formatted YYYY-MM-DD: ${JSON.stringify(text)}`)
  return text as LocalDate
}

/** Trusted internal conversion: the string must already be a valid date. */
export const unsafeLocalDate = (s: string): LocalDate => s as LocalDate

export const dateParts = (d: LocalDate): DateParts => ({
  year: Number(d.slice(0, 4)),
  month: Number(d.slice(5, 7)),
  day: Number(d.slice(8, 10))
})

// Days from civil and civil from days: H. Hinnant's algorithms, exact for the proleptic Gregorian
// calendar and branch-free, so conversions cost a handful of integer operations.
export const dayNumberOf = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const mp = (month + 9) % 12
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/**
 * Civil from days (H. Hinnant), the one copy: the date of day number `n` packed into one number,
 * `monthIndex * 32 + day` with `monthIndex = year * 12 + month - 1`, so the hot loops that only
 * need a month or a day read it without allocating an object per call. Unpack with
 * `monthIndexOfCivil` and `dayOfCivil`.
 */
export const civilOfDayNumber = (n: number): number => {
  const z = n + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  return (year * 12 + month - 1) * 32 + day
}

/** The month index (`year * 12 + month - 1`) of a packed civil date. */
export const monthIndexOfCivil = (civil: number): number => Math.floor(civil / 32)

/** The day of month of a packed civil date. */
export const dayOfCivil = (civil: number): number => civil - monthIndexOfCivil(civil) * 32

export const partsOfDayNumber = (n: number): DateParts => {
  const civil = civilOfDayNumber(n)
  const monthIndex = monthIndexOfCivil(civil)
  const year = Math.floor(monthIndex / 12)
  return { year, month: monthIndex - year * 12 + 1, day: civil - monthIndex * 32 }
}

/** Days since 1970-01-01 (negative before it); years 0000-9999, the years a LocalDate can hold. */
export const toDayNumber = (d: LocalDate): number =>
  dayNumberOf(Number(d.slice(0, 4)), Number(d.slice(5, 7)), Number(d.slice(8, 10)))

/** The last day a LocalDate can hold, 9999-12-31: nothing may be planned past it. */
export const LAST_DAY_NUMBER: number = dayNumberOf(9999, 12, 31)

export const fromDayNumber = (n: number): LocalDate => {
  const p = partsOfDayNumber(n)
  return `${pad4(p.year)}-${pad2(p.month)}-${pad2(p.day)}` as LocalDate
}

export const addDays = (d: LocalDate, days: number): LocalDate => fromDayNumber(toDayNumber(d) + days)

/** Whole days from `a` to `b` (positive when b is later). */
export const daysBetween = (a: LocalDate, b: LocalDate): number => toDayNumber(b) - toDayNumber(a)

/** ISO weekday of a day number: 1 = Monday ... 7 = Sunday. 1970-01-01 was a Thursday. */
export const isoWeekdayOfDayNumber = (n: number): number => ((((n + 3) % 7) + 7) % 7) + 1

export const isoWeekday = (d: LocalDate): number => isoWeekdayOfDayNumber(toDayNumber(d))

/**
 * Adds calendar months, clamping the day to the end of a shorter month (Jan 31 + 1 month =
 * Feb 28/29), the convention of date-fns and of every bank.
 */
export const addMonths = (d: LocalDate, months: number): LocalDate => {
  const p = dateParts(d)
  const index = p.year * 12 + (p.month - 1) + months
  const year = Math.floor(index / 12)
  const month = index - year * 12 + 1
  return makeLocalDate(year, month, Math.min(p.day, daysInMonth(year, month)))
}

/** The last day of `d`'s month (28 February, 29 in a leap year, the 30th or the 31st). */
export const lastDayOfMonth = (d: LocalDate): LocalDate => {
  const { year, month } = dateParts(d)
  return makeLocalDate(year, month, daysInMonth(year, month))
}

export const compareLocalDate = (a: LocalDate, b: LocalDate): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0)

export const minLocalDate = (a: LocalDate, b: LocalDate): LocalDate => (a <= b ? a : b)
export const maxLocalDate = (a: LocalDate, b: LocalDate): LocalDate => (a >= b ? a : b)

// ---------------------------------------------------------------------------------------------
// Timestamps

// A unit of work stamps several records with the same instant: the last rendering is reused.
let lastMillis = Number.NaN
let lastTimestamp = ""

const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * A real instant in the one rendering: the pattern, a calendar date, and a time of day within
 * 23:59:59 (24:00 and leap seconds are refused, as rendering them back would not give the same
 * text). Every stored record's timestamps pass here on every read and write, so the check is
 * arithmetic on the text; the one the clock rendered last passes at once.
 */
const isTimestamp = (s: string): boolean =>
  s === lastTimestamp ||
  (TIMESTAMP_PATTERN.test(s) && isRealDate(s.slice(0, 10)) && Number(s.slice(11, 13)) <= 23 && Number(s.slice(14, 16)) <= 59 &&
    Number(s.slice(17, 19)) <= 59)

/** An instant in UTC, always rendered `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const Timestamp = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => isTimestamp(s), {
      expected: "a UTC timestamp formatted YYYY-MM-DDTHH:mm:ss.sssZ",
      message: "must be a UTC timestamp formatted YYYY-MM-DDTHH:mm:ss.sssZ"
    })
  ),
  Schema.brand("Timestamp")
).annotate({ identifier: "Timestamp" })
export type Timestamp = typeof Timestamp.Type


export const timestampFromMillis = (ms: number): Timestamp => {
  if (ms !== lastMillis) {
    lastTimestamp = new Date(ms).toISOString()
    lastMillis = ms
  }
  return lastTimestamp as Timestamp
}

export const timestampToMillis = (t: Timestamp): number => Date.parse(t)

/**
 * Parses a client-supplied date-time (any ISO 8601 form `Date.parse` accepts with an explicit
 * offset or `Z`, or a bare date meaning midnight UTC) into a canonical timestamp.
 */
export const parseTimestamp = (s: string): Timestamp | undefined => {
  if (isRealDate(s)) return `${s}T00:00:00.000Z` as Timestamp
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return undefined
  const ms = Date.parse(s)
  return Number.isFinite(ms) ? timestampFromMillis(ms) : undefined
}

/** The calendar date in UTC of an instant given in epoch milliseconds. */
/** The milliseconds of a UTC day (calendar dates ignore leap seconds, as JavaScript's clock does). */
export const MILLIS_PER_DAY = 86_400_000

export const localDateOfMillis = (ms: number): LocalDate => fromDayNumber(Math.floor(ms / MILLIS_PER_DAY))

/**
 * The calendar date of an instant in an IANA time zone (banks run on local days: a payment
 * submitted at 23:30 UTC on a summer day in London is already the next day there).
 */
// Building an Intl.DateTimeFormat costs tens of microseconds; there are only a handful of zones.
const zoneFormats = new Map<string, Intl.DateTimeFormat>()
const zoneFormat = (timeZone: string): Intl.DateTimeFormat => {
  let format = zoneFormats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    zoneFormats.set(timeZone, format)
  }
  return format
}

const formatLocalDateIn = (ms: number, timeZone: string): LocalDate => {
  const parts = zoneFormat(timeZone).formatToParts(new Date(ms))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return makeLocalDate(get("year"), get("month"), get("day"))
}

/**
 * Every zone's offset from UTC, and every change of it, falls on a quarter of an hour (the last
 * zone that did not, Liberia, moved in 1972), so the local date is the same through each UTC
 * quarter-hour. Formatting costs microseconds and a request asks for today several times: each
 * zone keeps the date of the last quarter-hour it was asked for.
 */
const QUARTER_HOUR_MS = 900_000
/** From here on every zone's offset is a whole number of quarter-hours. */
const QUARTER_HOUR_OFFSETS_SINCE_MS = Date.UTC(1973, 0, 1)
const lastQuarterOf = new Map<string, { readonly quarter: number; readonly date: LocalDate }>()

export const localDateOfMillisIn = (ms: number, timeZone: string): LocalDate => {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS)
  const last = lastQuarterOf.get(timeZone)
  if (last !== undefined && last.quarter === quarter) return last.date
  const date = formatLocalDateIn(ms, timeZone)
  // A quarter-hour before 1972 is not assumed whole; nor is one whose two ends disagree.
  if (ms >= QUARTER_HOUR_OFFSETS_SINCE_MS && formatLocalDateIn(quarter * QUARTER_HOUR_MS, timeZone) === date &&
    formatLocalDateIn((quarter + 1) * QUARTER_HOUR_MS - 1, timeZone) === date) {
    lastQuarterOf.set(timeZone, { quarter, date })
  }
  return date
}

/** Every zone's offset lies within this of UTC (today's extremes are -12 and +14 hours). */
const ZONE_OFFSET_BOUND_MS = 15 * 3_600_000

/** The first instant in [lo, hi] for which `reached` holds, `reached` false before it and true after (hi satisfies it). */
const firstMillisWhere = (lo: number, hi: number, step: number, reached: (ms: number) => boolean): number => {
  let [low, high] = [Math.floor(lo / step), Math.ceil(hi / step)]
  while (low < high) {
    const mid = Math.floor((low + high) / 2)
    if (reached(mid * step)) high = mid
    else low = mid + 1
  }
  return high * step
}

/**
 * The first instant whose calendar date in the IANA time zone is `date` or later: the start of
 * that local day (of the next one if the zone skipped it, as Samoa skipped 30 December 2011). A
 * deadline "once that date has passed" in a zone falls there for the next date.
 */
export const startOfLocalDateIn = (date: LocalDate, timeZone: string): number => {
  const midnightUtc = toDayNumber(date) * MILLIS_PER_DAY
  const reached = (ms: number) => localDateOfMillisIn(ms, timeZone) >= date
  // Days almost always change on a quarter-hour: a search by quarters, then by milliseconds
  // inside the quarter found only when the day began inside it (Kiribati ran at -10:40 until 1979).
  const quarter = firstMillisWhere(midnightUtc - ZONE_OFFSET_BOUND_MS, midnightUtc + ZONE_OFFSET_BOUND_MS, QUARTER_HOUR_MS, reached)
  return reached(quarter - 1) ? firstMillisWhere(quarter - QUARTER_HOUR_MS, quarter, 1, reached) : quarter
}

// ---------------------------------------------------------------------------------------------
// The clock port is Effect's own `Clock` (TestClock in tests); these read it.

// The clock is read from the fiber directly: one step instead of four, on every write's path.
/** The clock's reading in epoch milliseconds, inside a step that already holds its fiber. */
export const millisIn = (fiber: Fiber.Fiber<unknown, unknown>): number => fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()

/** The current instant as a timestamp. */
export const now: Effect.Effect<Timestamp> = Effect.withFiberSucceed((fiber) => nowIn(fiber))

/** `now` inside a step that already holds its fiber: the same clock, without a step of its own. */
export const nowIn = (fiber: Fiber.Fiber<unknown, unknown>): Timestamp => timestampFromMillis(millisIn(fiber))

/** Today's date in UTC, or in the given IANA time zone. */
export const today = (timeZone?: string): Effect.Effect<LocalDate> =>
  Effect.withFiberSucceed((fiber) => {
    const ms = millisIn(fiber)
    return timeZone === undefined ? localDateOfMillis(ms) : localDateOfMillisIn(ms, timeZone)
  })
