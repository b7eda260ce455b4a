import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { divRoundHalfEven } from "../src/index.ts"

describe("divRoundHalfEven", () => {
  it("rounds ties to the even neighbour, both signs", () => {
    expect(divRoundHalfEven(5n, 2n)).toBe(2n)
    expect(divRoundHalfEven(7n, 2n)).toBe(4n)
    expect(divRoundHalfEven(-5n, 2n)).toBe(-2n)
    expect(divRoundHalfEven(-7n, 2n)).toBe(-4n)
    expect(divRoundHalfEven(1n, 3n)).toBe(0n)
    expect(divRoundHalfEven(2n, 3n)).toBe(1n)
    expect(divRoundHalfEven(-2n, 3n)).toBe(-1n)
    expect(divRoundHalfEven(0n, 7n)).toBe(0n)
  })

  it("is the nearest integer, and the even one on a tie", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 15n }), (n, d) => {
      const r = divRoundHalfEven(n, d)
      const error = n - r * d // exact quotient minus r, times d
      const twice = 2n * (error < 0n ? -error : error)
      expect(twice <= d).toBe(true)
      if (twice === d) expect(r % 2n).toBe(0n)
    }))
  })

  it("is symmetric: -x rounds to the negation of x rounded", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 10n }), (n, d) => {
      expect(divRoundHalfEven(-n, d)).toBe(-divRoundHalfEven(n, d))
    }))
  })

  it("refuses a non-positive denominator", () => {
    expect(() => divRoundHalfEven(1n, 0n)).toThrow(RangeError)
  })
})
