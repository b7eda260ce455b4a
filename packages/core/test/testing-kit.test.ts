import fc from "fast-check"
import { addDays, dateParts, daysBetween, lastDayOfMonth, localDate, timestampToMillis } from "@paykit/core"
import { amountArb, localDateArb, schemeWithCurrencyArb, timestampArb } from "@paykit/core/testing"
import { describe, expect, it } from "vitest"

describe("dates written in code", () => {
  it("localDate takes real dates and throws a RangeError on any other text", () => {
    expect(localDate("2024-02-29")).toBe("2024-02-29")
    for (const bad of ["2023-02-29", "2026-13-01", "2026-1-01", "26-01-01", ""]) expect(() => localDate(bad), bad).toThrow(RangeError)
  })

  it("lastDayOfMonth is in the date's month, and the day after it is the next month's first", () => {
    fc.assert(fc.property(localDateArb("1900-01-01", "2199-12-31"), (d) => {
      const last = lastDayOfMonth(d)
      expect(last.slice(0, 7)).toBe(d.slice(0, 7))
      expect(last >= d).toBe(true)
      expect(dateParts(addDays(last, 1)).day).toBe(1)
    }))
  })
})

describe("@paykit/core/testing", () => {
  it("localDateArb draws only dates of its range, both ends included, and shrinks to its start", () => {
    fc.assert(fc.property(localDateArb("2026-01-30", "2026-03-02"), (d) => d >= "2026-01-30" && d <= "2026-03-02"))
    const seen = new Set(fc.sample(localDateArb("2026-02-27", "2026-03-01"), 200))
    expect([...seen].sort()).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"])
    const failed = fc.check(fc.property(localDateArb("2026-01-01", "2026-12-31"), (d) => d < "2026-06-01"), { seed: 1 })
    expect(failed.counterexample).toEqual(["2026-06-01"])
    expect(() => localDateArb("2026-02-01", "2026-01-01")).toThrow(RangeError)
    expect(() => localDateArb("2026-02-30", "2026-03-01")).toThrow(RangeError)
  })

  it("amountArb, timestampArb and schemeWithCurrencyArb stay within what they name", () => {
    fc.assert(fc.property(amountArb({ min: 5, max: 9 }), (a) => Number.isInteger(a) && a >= 5 && a <= 9))
    fc.assert(fc.property(amountArb(), (a) => a >= 1 && a <= 1_000_000))
    fc.assert(fc.property(timestampArb("2026-03-01", "2026-03-02"), (t) => {
      const days = daysBetween(localDate("2026-03-01"), localDate(t.slice(0, 10)))
      return (days === 0 || days === 1) && timestampToMillis(t) >= Date.UTC(2026, 2, 1)
    }))
    fc.assert(fc.property(schemeWithCurrencyArb, ({ scheme, currency }) => scheme !== "bacs" || currency === "GBP"))
  })
})
