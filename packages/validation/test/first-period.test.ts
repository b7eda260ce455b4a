import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, fromDayNumber, isoWeekday, type LocalDate, toDayNumber, unsafeLocalDate } from "@paykit/core"
import { firstPeriod, firstPeriodLimit, proportionalLimit } from "../src/index.ts"

const date = fc.integer({ min: toDayNumber(unsafeLocalDate("1990-01-01")), max: toDayNumber(unsafeLocalDate("2100-12-31")) }).map(fromDayNumber)
const fixedPeriod = fc.constantFrom("day" as const, "week" as const, "month" as const, "year" as const)
const limit = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
const d = unsafeLocalDate

describe("the first period of a periodic limit", () => {
  it("known answers", () => {
    // 2026-11-21 is a Saturday: the calendar week left is Saturday and Sunday, 2 of 7 days.
    expect(firstPeriod("week", "calendar", d("2026-11-21"))).toEqual({
      periodStart: d("2026-11-16"), periodEnd: d("2026-11-22"), coveredDays: 2, periodDays: 7
    })
    expect(firstPeriodLimit(7000, "week", "calendar", d("2026-11-21"))).toBe(2000)
    // 10 of November's 30 days are left from the 21st: 100.00 -> 33.33, rounded down.
    expect(firstPeriodLimit(10000, "month", "calendar", d("2026-11-21"))).toBe(3333)
    // 2028 is a leap year: from 1 March 306 of 366 days remain.
    expect(firstPeriodLimit(36600, "year", "calendar", d("2028-03-01"))).toBe(30600)
    expect(firstPeriod("month", "creation_date", d("2026-01-31"))).toEqual({
      periodStart: d("2026-01-31"), periodEnd: d("2026-02-27"), coveredDays: 28, periodDays: 28
    })
    expect(firstPeriodLimit(10000, "flexible", "calendar", d("2026-11-21"))).toBe(10000)
  })

  it("creation_date alignment always gives a full first period and the whole limit", () => {
    fc.assert(
      fc.property(fixedPeriod, date, limit, (period, start, l) => {
        const first = firstPeriod(period, "creation_date", start)
        expect(first.periodStart).toBe(start)
        expect(first.coveredDays).toBe(first.periodDays)
        expect(firstPeriodLimit(l, period, "creation_date", start)).toBe(l)
      })
    )
  })

  it("calendar periods are Monday-Sunday weeks, whole months and whole years, and contain the start date", () => {
    fc.assert(
      fc.property(fixedPeriod, date, (period, start) => {
        const first = firstPeriod(period, "calendar", start)
        expect(first.periodStart <= start && start <= first.periodEnd).toBe(true)
        expect(first.coveredDays).toBe(toDayNumber(first.periodEnd) - toDayNumber(start) + 1)
        const next = addDays(first.periodEnd, 1)
        if (period === "week") {
          expect(isoWeekday(first.periodStart)).toBe(1)
          expect(first.periodDays).toBe(7)
        }
        if (period === "month") expect([first.periodStart.slice(8), next.slice(8)]).toEqual(["01", "01"])
        if (period === "year") expect([first.periodStart.slice(5), next.slice(5)]).toEqual(["01-01", "01-01"])
        if (period === "day") expect(first.periodDays).toBe(1)
      })
    )
  })

  it("the reduced limit is the exact proportion rounded down", () => {
    fc.assert(
      fc.property(fixedPeriod, date, limit, (period, start, l) => {
        const { coveredDays, periodDays } = firstPeriod(period, "calendar", start)
        const reduced = BigInt(firstPeriodLimit(l, period, "calendar", start))
        const exact = BigInt(l) * BigInt(coveredDays)
        expect(reduced * BigInt(periodDays) <= exact).toBe(true)
        expect(exact < (reduced + 1n) * BigInt(periodDays)).toBe(true)
      })
    )
  })

  it("starting on the first day of a calendar period keeps the whole limit; starting later never raises it", () => {
    fc.assert(
      fc.property(fixedPeriod, date, limit, (period, start, l) => {
        const { periodStart } = firstPeriod(period, "calendar", start)
        expect(firstPeriodLimit(l, period, "calendar", periodStart)).toBe(l)
        const later: LocalDate = addDays(start, 1)
        const sameCalendarPeriod = firstPeriod(period, "calendar", later).periodStart === periodStart
        if (sameCalendarPeriod) {
          expect(firstPeriodLimit(l, period, "calendar", later)).toBeLessThanOrEqual(firstPeriodLimit(l, period, "calendar", start))
        }
      })
    )
  })

  it("proportionalLimit rejects parts that are not a part of a period", () => {
    expect(() => proportionalLimit(10, 8, 7)).toThrow(RangeError)
    expect(() => proportionalLimit(-1, 1, 7)).toThrow(RangeError)
    expect(proportionalLimit(Number.MAX_SAFE_INTEGER, 365, 366)).toBe(Number((BigInt(Number.MAX_SAFE_INTEGER) * 365n) / 366n))
  })
})
