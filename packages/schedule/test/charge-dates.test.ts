import { fromDayNumber, partsOfDayNumber, toDayNumber, unsafeLocalDate } from "@paykit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  calendarFor,
  CALENDAR_NAMES,
  dayOfMonthOfDayNumber,
  formatDayNumber,
  monthIndexOfDayNumber,
  nextPossibleChargeDate
} from "../src/index.ts"

const d = unsafeLocalDate
const dayArb = fc.integer({ min: toDayNumber(d("1900-01-01")), max: toDayNumber(d("2200-12-31")) })

describe("day-number formatting", () => {
  it("formatDayNumber, monthIndexOfDayNumber and dayOfMonthOfDayNumber agree with core's conversions", () => {
    fc.assert(
      fc.property(dayArb, (n) => {
        const p = partsOfDayNumber(n)
        expect(formatDayNumber(n)).toBe(fromDayNumber(n))
        expect(monthIndexOfDayNumber(n)).toBe(p.year * 12 + p.month - 1)
        expect(dayOfMonthOfDayNumber(n)).toBe(p.day)
      })
    )
  })
})

describe("nextPossibleChargeDate", () => {
  it("is a business day, with exactly minimumAdvanceNotice business days from today (rolled forward) before it", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CALENDAR_NAMES), dayArb, fc.integer({ min: 0, max: 15 }), (scheme, n, notice) => {
        const today = fromDayNumber(n)
        const cal = calendarFor(scheme)
        const result = nextPossibleChargeDate({ scheme, today, minimumAdvanceNotice: notice })
        expect(cal.isBusinessDay(result)).toBe(true)
        expect(result >= today).toBe(true)
        expect(cal.businessDaysBetween(cal.rollForward(today), result)).toBe(notice)
      })
    )
  })

  it("is monotone in today and in the notice", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CALENDAR_NAMES), dayArb, fc.integer({ min: 0, max: 10 }), (scheme, n, notice) => {
        const a = nextPossibleChargeDate({ scheme, today: fromDayNumber(n), minimumAdvanceNotice: notice })
        const b = nextPossibleChargeDate({ scheme, today: fromDayNumber(n + 1), minimumAdvanceNotice: notice })
        const c = nextPossibleChargeDate({ scheme, today: fromDayNumber(n), minimumAdvanceNotice: notice + 1 })
        expect(a <= b).toBe(true)
        expect(a < c).toBe(true)
      })
    )
  })

  it("known answers on Bacs (England and Wales)", () => {
    const bacs = (today: string, n: number) => nextPossibleChargeDate({ scheme: "bacs", today: d(today), minimumAdvanceNotice: n })
    expect(bacs("2026-11-21", 3)).toBe("2026-11-26") // Saturday: counting starts Monday 23rd
    expect(bacs("2026-11-23", 0)).toBe("2026-11-23")
    expect(bacs("2026-11-22", 0)).toBe("2026-11-23")
    // 25 Dec (Fri) and 28 Dec (Boxing Day substitute) are closed
    expect(bacs("2026-12-23", 3)).toBe("2026-12-30")
  })
})
