import { dayNumberOf, fromDayNumber, isoWeekdayOfDayNumber, toDayNumber } from "@paykit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CALENDAR_NAMES, calendarFor } from "../src/index.ts"
import type { BusinessCalendar } from "../src/index.ts"

// The rules every calendar must obey whatever its holidays, stated as properties over random
// dates of 1970-2100.
const FIRST = dayNumberOf(1970, 1, 1)
const LAST = dayNumberOf(2100, 12, 31)
const day = fc.integer({ min: FIRST, max: LAST })
const steps = fc.integer({ min: 0, max: 60 })
const RUNS = { numRuns: 150 }

const distinct = (): ReadonlyArray<BusinessCalendar> => [...new Set(CALENDAR_NAMES.map(calendarFor))]

const noBusinessDayIn = (cal: BusinessCalendar, from: number, to: number): boolean => {
  for (let n = from; n < to; n++) if (cal.isBusinessDayNumber(n)) return false
  return true
}

describe.each(distinct().map((cal) => [cal.name, cal] as const))("calendar %s", (_name, cal) => {
  it("never opens on a weekend", () => {
    fc.assert(fc.property(day, (n) => !(isoWeekdayOfDayNumber(n) >= 6 && cal.isBusinessDayNumber(n))), RUNS)
  })

  it("rolls forward to the nearest business day on or after the date", () => {
    fc.assert(
      fc.property(day, (n) => {
        const r = cal.rollForwardDay(n)
        return r >= n && cal.isBusinessDayNumber(r) && noBusinessDayIn(cal, n, r)
      }),
      RUNS
    )
  })

  it("rolls backward to the nearest business day on or before the date", () => {
    fc.assert(
      fc.property(day, (n) => {
        const r = cal.rollBackwardDay(n)
        return r <= n && cal.isBusinessDayNumber(r) && noBusinessDayIn(cal, r + 1, n + 1)
      }),
      RUNS
    )
  })

  it("next and previous business days move at least one day, to the nearest one", () => {
    fc.assert(
      fc.property(day, (n) => {
        const next = cal.nextBusinessDayNumber(n)
        const prev = cal.previousBusinessDayNumber(n)
        return (
          next > n && cal.isBusinessDayNumber(next) && noBusinessDayIn(cal, n + 1, next) &&
          prev < n && cal.isBusinessDayNumber(prev) && noBusinessDayIn(cal, prev + 1, n)
        )
      }),
      RUNS
    )
  })

  it("adding n business days lands n business days after the rolled-forward date", () => {
    fc.assert(
      fc.property(day, steps, (n, k) => {
        const result = cal.addBusinessDaysToDay(n, k)
        return cal.isBusinessDayNumber(result) && cal.businessDaysBetweenDays(cal.rollForwardDay(n), result) === k
      }),
      RUNS
    )
  })

  it("subtracting n business days lands n business days before the rolled-back date", () => {
    fc.assert(
      fc.property(day, steps, (n, k) => {
        const result = cal.subtractBusinessDaysFromDay(n, k)
        return cal.isBusinessDayNumber(result) && cal.businessDaysBetweenDays(result, cal.rollBackwardDay(n)) === k
      }),
      RUNS
    )
  })

  it("subtracting undoes adding on a business day, and a negative count goes the other way", () => {
    fc.assert(
      fc.property(day, steps, (n, k) => {
        const b = cal.rollForwardDay(n)
        return (
          cal.subtractBusinessDaysFromDay(cal.addBusinessDaysToDay(b, k), k) === b &&
          cal.addBusinessDaysToDay(n, -(k + 1)) === cal.subtractBusinessDaysFromDay(n, k + 1)
        )
      }),
      RUNS
    )
  })

  it("counts business days between two dates, start included and end excluded, across years", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -800, max: 800 }), (a, span) => {
        const b = a + span
        let count = 0
        for (let n = Math.min(a, b); n < Math.max(a, b); n++) if (cal.isBusinessDayNumber(n)) count += 1
        return cal.businessDaysBetweenDays(a, b) === (span >= 0 ? count : -count)
      }),
      RUNS
    )
  })

  it("counts additively over any span, inside and outside the 1970-2100 window", () => {
    const wide = fc.integer({ min: dayNumberOf(1900, 1, 1), max: dayNumberOf(2200, 12, 31) })
    fc.assert(
      fc.property(wide, wide, wide, (a, m, b) => {
        const direct = cal.businessDaysBetweenDays(a, b)
        return direct === cal.businessDaysBetweenDays(a, m) + cal.businessDaysBetweenDays(m, b) &&
          direct === -cal.businessDaysBetweenDays(b, a)
      }),
      RUNS
    )
  })

  it("counts exactly near and beyond the window's edges", () => {
    const edge = fc.oneof(
      fc.integer({ min: dayNumberOf(1960, 1, 1), max: dayNumberOf(1972, 1, 1) }),
      fc.integer({ min: dayNumberOf(2098, 1, 1), max: dayNumberOf(2110, 1, 1) })
    )
    fc.assert(
      fc.property(edge, fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 30 }), (a, span, k) => {
        let count = 0
        for (let n = a; n < a + span; n++) if (cal.isBusinessDayNumber(n)) count += 1
        const added = cal.addBusinessDaysToDay(a, k)
        return cal.businessDaysBetweenDays(a, a + span) === count &&
          cal.businessDaysBetweenDays(cal.rollForwardDay(a), added) === k
      }),
      RUNS
    )
  })

  it("lists as holidays exactly the weekdays of the year it closes, sorted", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2100 }), (year) => {
        const expected: Array<string> = []
        for (let n = dayNumberOf(year, 1, 1); n < dayNumberOf(year + 1, 1, 1); n++) {
          if (isoWeekdayOfDayNumber(n) <= 5 && !cal.isBusinessDayNumber(n)) expected.push(fromDayNumber(n))
        }
        expect(cal.holidays(year)).toEqual(expected)
      }),
      { numRuns: 40 }
    )
  })

  it("gives the same answers on date strings as on day numbers", () => {
    fc.assert(
      fc.property(day, steps, (n, k) => {
        const d = fromDayNumber(n)
        const e = fromDayNumber(n + k * 3)
        expect(cal.isBusinessDay(d)).toBe(cal.isBusinessDayNumber(n))
        expect(toDayNumber(cal.rollForward(d))).toBe(cal.rollForwardDay(n))
        expect(toDayNumber(cal.rollBackward(d))).toBe(cal.rollBackwardDay(n))
        expect(toDayNumber(cal.nextBusinessDay(d))).toBe(cal.nextBusinessDayNumber(n))
        expect(toDayNumber(cal.previousBusinessDay(d))).toBe(cal.previousBusinessDayNumber(n))
        expect(toDayNumber(cal.addBusinessDays(d, k))).toBe(cal.addBusinessDaysToDay(n, k))
        expect(toDayNumber(cal.subtractBusinessDays(d, k))).toBe(cal.subtractBusinessDaysFromDay(n, k))
        expect(cal.businessDaysBetween(d, e)).toBe(cal.businessDaysBetweenDays(n, n + k * 3))
      }),
      RUNS
    )
  })

  it("refuses a fractional business day count", () => {
    expect(() => cal.addBusinessDaysToDay(FIRST, 1.5)).toThrow(RangeError)
  })
})

describe("calendarFor", () => {
  it("has a calendar for every scheme, shared by the schemes that settle alike", () => {
    expect(calendarFor("faster_payments")).toBe(calendarFor("bacs"))
    expect(calendarFor("pay_to")).toBe(calendarFor("becs"))
    for (const s of ["sepa", "sepa_credit_transfer", "sepa_instant_credit_transfer"] as const) {
      expect(calendarFor(s)).toBe(calendarFor("sepa_core"))
    }
    expect(CALENDAR_NAMES.length).toBe(13)
  })
})
