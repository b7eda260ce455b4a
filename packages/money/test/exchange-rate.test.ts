import { EXCHANGE_RATE_MAX_DECIMALS } from "@paykit/core"
import fc from "fast-check"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  EXCHANGE_RATE_ONE,
  ExchangeRateString,
  FX_AMOUNT_OUT_OF_RANGE,
  convertMinorUnits,
  exchangeRateFromScaled,
  parseExchangeRate,
  renderExchangeRate
} from "../src/index.ts"

const rate = (s: string) => {
  const r = parseExchangeRate(s)
  if (r === undefined) throw new Error(`bad test rate ${s}`)
  return r
}
const convert = (amount: number, s: string): number => {
  const r = convertMinorUnits(amount, rate(s))
  if (Result.isFailure(r)) throw r.failure
  return r.success
}
const scaledRate = fc.bigInt({ min: 1n, max: 10n ** 14n }).map((n) => {
  const r = exchangeRateFromScaled(n)
  if (r === undefined) throw new Error("unreachable: positive")
  return r
})
const amount = fc.integer({ min: -(2 ** 40), max: 2 ** 40 })

describe("exchange rates", () => {
  it("parse exact decimals with up to 10 places and nothing else", () => {
    expect(rate("1.1234567890").scaled).toBe(11_234_567_890n)
    expect(rate("1").scaled).toBe(10n ** 10n)
    expect(rate("0.0000000001").scaled).toBe(1n)
    for (const bad of ["0", "0.0", "-1.2", "1.12345678901", "1.", ".5", "1e3", "", " 1.2", "1,2", "NaN", "Infinity"]) {
      expect(parseExchangeRate(bad)).toBeUndefined()
    }
    expect(Schema.decodeUnknownResult(ExchangeRateString)("1.12345678901")._tag).toBe("Failure")
    expect(Schema.decodeUnknownResult(ExchangeRateString)("0.85")._tag).toBe("Success")
  })

  it("render with exactly 10 decimal places", () => {
    expect(renderExchangeRate(rate("1.123456789"))).toBe("1.1234567890")
    expect(renderExchangeRate(EXCHANGE_RATE_ONE)).toBe("1.0000000000")
    expect(renderExchangeRate(rate("0.0000000001"))).toBe("0.0000000001")
    expect(renderExchangeRate(rate("12345.5"))).toBe("12345.5000000000")
  })

  it("round-trip through their string form", () => {
    fc.assert(fc.property(scaledRate, (r) => {
      const s = renderExchangeRate(r)
      expect(s).toMatch(new RegExp(`^\\d+\\.\\d{${EXCHANGE_RATE_MAX_DECIMALS}}$`))
      expect(parseExchangeRate(s)?.scaled).toBe(r.scaled)
    }))
  })

  it("parse any string of digits the same as its rendering", () => {
    const text = fc.tuple(fc.stringMatching(/^[1-9]\d{0,5}$/), fc.stringMatching(/^\d{0,10}$/))
      .map(([w, f]) => (f === "" ? w : `${w}.${f}`))
    fc.assert(fc.property(text, (s) => {
      const r = rate(s)
      const [w, f = ""] = s.split(".")
      expect(renderExchangeRate(r)).toBe(`${w}.${f.padEnd(10, "0")}`)
    }))
  })
})

describe("conversion", () => {
  it("known answers, rounding half to even", () => {
    expect(convert(1000, "1.1234567890")).toBe(1123) // 1123.456789
    expect(convert(2892, "1.15")).toBe(3326) // 3325.8
    expect(convert(250, "0.5")).toBe(125)
    expect(convert(5, "0.5")).toBe(2) // 2.5 -> 2
    expect(convert(7, "0.5")).toBe(4) // 3.5 -> 4
    expect(convert(-5, "0.5")).toBe(-2)
    expect(convert(1, "0.0000000001")).toBe(0)
  })

  it("is exact for rate 1", () => {
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (a) => {
      expect(convert(a, "1")).toBe(a)
    }))
  })

  it("is monotonic in the amount", () => {
    fc.assert(fc.property(amount, amount, scaledRate, (a, b, r) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a]
      const cl = convertMinorUnits(lo, r)
      const ch = convertMinorUnits(hi, r)
      if (Result.isSuccess(cl) && Result.isSuccess(ch)) expect(cl.success <= ch.success).toBe(true)
    }))
  })

  it("is within half a minor unit of the exact product", () => {
    fc.assert(fc.property(amount, scaledRate, (a, r) => {
      const c = convertMinorUnits(a, r)
      if (Result.isFailure(c)) return
      // |c - a*r| <= 1/2  <=>  |c*10^10 - a*scaled| * 2 <= 10^10
      const diff = BigInt(c.success) * 10n ** 10n - BigInt(a) * r.scaled
      expect(2n * (diff < 0n ? -diff : diff) <= 10n ** 10n).toBe(true)
    }))
  })

  it("fails as a value when the result passes 2^53 - 1", () => {
    const r = convertMinorUnits(Number.MAX_SAFE_INTEGER, rate("2"))
    expect(Result.isFailure(r) && r.failure.reason).toBe(FX_AMOUNT_OUT_OF_RANGE)
  })
})
