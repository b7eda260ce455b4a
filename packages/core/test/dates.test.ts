import { addDays as dfAddDays, addMonths as dfAddMonths, differenceInCalendarDays, format, getISODay } from "date-fns"
import { Effect, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  LocalDate,
  Timestamp,
  addDays,
  addMonths,
  civilOfDayNumber,
  dayOfCivil,
  daysBetween,
  fromDayNumber,
  isoWeekday,
  localDateOfMillisIn,
  startOfLocalDateIn,
  unsafeLocalDate,
  makeLocalDate,
  monthIndexOfCivil,
  now,
  parseTimestamp,
  timestampFromMillis,
  toDayNumber,
  today
} from "@paykit/core"

const toJsDate = (d: string): Date => {
  const [y, m, day] = d.split("-").map(Number)
  return new Date(y ?? 0, (m ?? 1) - 1, day ?? 1)
}
const fromJsDate = (d: Date): string => format(d, "yyyy-MM-dd")

/** Random real calendar dates between 1970 and 2100. */
const localDate = fc
  .date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2100, 11, 31)), noInvalidDate: true })
  .map((d) => makeLocalDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()))

const decodeDate = Schema.decodeUnknownSync(LocalDate)

describe("LocalDate", () => {
  it("round-trips through its day number", () => {
    fc.assert(fc.property(localDate, (d) => {
        expect(fromDayNumber(toDayNumber(d))).toBe(d)
      }))
    fc.assert(fc.property(fc.integer({ min: -719_468, max: 2_932_896 }), (n) => {
        expect(toDayNumber(fromDayNumber(n))).toBe(n)
      }))
  })

  it("civil from days (packed) names the date the JavaScript clock gives for that day, in every year 0000-9999", () => {
    fc.assert(fc.property(fc.integer({ min: -719_528, max: 2_932_896 }), (n) => {
      const js = new Date(n * 86_400_000)
      const civil = civilOfDayNumber(n)
      expect(monthIndexOfCivil(civil)).toBe(js.getUTCFullYear() * 12 + js.getUTCMonth())
      expect(dayOfCivil(civil)).toBe(js.getUTCDate())
    }))
  })

  it("adds days exactly as date-fns does", () => {
    fc.assert(
      fc.property(localDate, fc.integer({ min: -20_000, max: 20_000 }), (d, n) => {
        expect(addDays(d, n)).toBe(fromJsDate(dfAddDays(toJsDate(d), n)))
      })
    )
  })

  it("adds months with end-of-month clamping exactly as date-fns does", () => {
    fc.assert(
      fc.property(localDate, fc.integer({ min: -600, max: 600 }), (d, n) => {
        expect(addMonths(d, n)).toBe(fromJsDate(dfAddMonths(toJsDate(d), n)))
      })
    )
  })

  it("counts days between and weekdays as date-fns does", () => {
    fc.assert(
      fc.property(localDate, localDate, (a, b) => {
        expect(daysBetween(a, b)).toBe(differenceInCalendarDays(toJsDate(b), toJsDate(a)))
        expect(isoWeekday(a)).toBe(getISODay(toJsDate(a)))
      })
    )
  })

  it("orders as strings in the same order as day numbers", () => {
    fc.assert(fc.property(localDate, localDate, (a, b) => {
        expect(a < b).toBe(toDayNumber(a) < toDayNumber(b))
      }))
  })

  it("decodes every real date and rejects impossible ones", () => {
    fc.assert(fc.property(localDate, (d) => {
        expect(decodeDate(d)).toBe(d)
      }))
    for (const bad of ["2026-02-29", "2025-13-01", "2025-00-10", "2025-04-31", "2025-1-01", "20250101", "", "2025-01-01T00:00:00Z"]) {
      expect(() => decodeDate(bad), bad).toThrow()
    }
    expect(decodeDate("2024-02-29")).toBe("2024-02-29")
    expect(decodeDate("2000-02-29")).toBe("2000-02-29")
    expect(() => decodeDate("1900-02-29")).toThrow()
  })
})

describe("Timestamp", () => {
  it("always renders UTC with milliseconds and round-trips", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const t = timestampFromMillis(ms)
        expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        expect(Schema.decodeUnknownSync(Timestamp)(t)).toBe(t)
        expect(parseTimestamp(t)).toBe(t)
      })
    )
  })

  it("parses offsets and bare dates into canonical UTC", () => {
    expect(parseTimestamp("2026-03-01T10:00:00+01:00")).toBe("2026-03-01T09:00:00.000Z")
    expect(parseTimestamp("2026-03-01")).toBe("2026-03-01T00:00:00.000Z")
    expect(parseTimestamp("2026-03-01T10:00:00")).toBeUndefined()
    expect(parseTimestamp("yesterday")).toBeUndefined()
    expect(() => Schema.decodeUnknownSync(Timestamp)("2026-03-01T10:00:00Z")).toThrow()
  })

  it("reads now and today from Effect's Clock", async () => {
    const program = Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 5, 30, 23, 30))
      return [yield* now, yield* today(), yield* today("Europe/London")] as const
    })
    const [t, utc, london] = await Effect.runPromise(Effect.provide(program, Layer.empty.pipe(Layer.provideMerge(TestClock.layer()))))
    expect(t).toBe("2026-06-30T23:30:00.000Z")
    expect(utc).toBe("2026-06-30")
    expect(london).toBe("2026-07-01")
    expect(localDateOfMillisIn(Date.UTC(2026, 0, 1, 0, 30), "America/New_York")).toBe("2025-12-31")
  })

  it("the local date in a zone is the calendar's answer at every instant, however the calls follow each other", () => {
    // Zones with half-hour and 45-minute offsets and DST changes, and the 1970s before every offset was a quarter-hour.
    const zones = ["Europe/London", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe", "America/St_Johns", "Africa/Monrovia", "Pacific/Apia"]
    const formats = new Map(zones.map((zone) => [zone, new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" })]))
    const reference = (ms: number, zone: string) => formats.get(zone)?.format(new Date(ms))
    const instant = fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) })
    // Each instant is followed by a few close ones (same or next quarter-hour), as requests read today.
    const steps = fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 5 })
    fc.assert(fc.property(fc.constantFrom(...zones), instant, steps, (zone, start, deltas) => {
      for (const ms of [start, ...deltas.map((d) => Math.max(0, start + d))]) expect(localDateOfMillisIn(ms, zone)).toBe(reference(ms, zone))
    }), { numRuns: 2000 })
  })

  it("a local day starts at the first instant whose date there is that day or later", () => {
    const zones = ["Europe/London", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "Pacific/Apia", "Africa/Monrovia", "Pacific/Kiritimati", "Etc/GMT+12"]
    const formats = new Map(zones.map((zone) => [zone, new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" })]))
    const dateAt = (ms: number, zone: string) => formats.get(zone)?.format(new Date(ms)) ?? ""
    const day = fc.integer({ min: 1, max: Date.UTC(2100, 0, 1) / 86_400_000 }).map((n) => new Date(n * 86_400_000).toISOString().slice(0, 10))
    fc.assert(fc.property(fc.constantFrom(...zones), day, (zone, date) => {
      const start = startOfLocalDateIn(unsafeLocalDate(date), zone)
      expect(dateAt(start, zone) >= date).toBe(true)
      expect(dateAt(start - 1, zone) < date).toBe(true)
    }), { numRuns: 2000 })
    // London in summer: the day starts at 23:00 UTC the day before; Samoa skipped 30 December 2011.
    expect(startOfLocalDateIn(unsafeLocalDate("2026-07-01"), "Europe/London")).toBe(Date.UTC(2026, 5, 30, 23))
    expect(startOfLocalDateIn(unsafeLocalDate("2011-12-30"), "Pacific/Apia")).toBe(startOfLocalDateIn(unsafeLocalDate("2011-12-31"), "Pacific/Apia"))
  })

  it("renders the same instant the same way, and the next one anew", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), { minLength: 1, maxLength: 6 }), (instants) => {
      for (const ms of [...instants, ...instants]) expect(timestampFromMillis(ms)).toBe(new Date(ms).toISOString())
    }))
  })
})

describe("Timestamp's check", () => {
  /** The rule as JavaScript's own dates state it: the text is the rendering of the instant it names. */
  const rendersItself = (s: string) => {
    const ms = Date.parse(s)
    return Number.isFinite(ms) && new Date(ms).toISOString() === s
  }
  const pad = (n: number, width: number) => String(n).padStart(width, "0")

  it("accepts exactly the texts that render back to themselves, out-of-range fields included", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }),
      (year, month, day, hour, minute, second, ms) => {
        const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`
        expect(Schema.is(Timestamp)(text)).toBe(rendersItself(text))
      }
    ), { numRuns: 5_000 })
  })
})

describe("LocalDate's check", () => {
  /** The rule as JavaScript's own dates state it: YYYY-MM-DD naming a day that exists (years 0000-9999). */
  const namesADay = (s: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
    if (m === null) return false
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
    const date = new Date(0)
    date.setUTCFullYear(year, month - 1, day)
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  }

  it("accepts exactly the texts that name a real day", () => {
    const pad = (n: number, width: number) => String(n).padStart(width, "0")
    const shaped = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`)
    const noisy = fc.string({ unit: fc.constantFrom("0", "1", "2", "9", "-", " ", "a", "/"), minLength: 8, maxLength: 12 })
    fc.assert(fc.property(fc.oneof(shaped, noisy), (text) => {
      expect(Schema.is(LocalDate)(text)).toBe(namesADay(text))
    }), { numRuns: 10_000 })
  })
})
