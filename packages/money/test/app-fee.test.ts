import { APP_FEE_MAX_BASIS_POINTS } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { APP_FEE_MESSAGE, isAppFeeWithinLimit, maxAppFee, validateAppFee } from "../src/index.ts"

describe("app fees", () => {
  it("the limit is 50% (from core's limits)", () => {
    expect(APP_FEE_MAX_BASIS_POINTS).toBe(5000)
    expect(maxAppFee(1000)).toBe(500)
    expect(maxAppFee(1001)).toBe(500)
    expect(maxAppFee(1)).toBe(0)
  })

  it("is accepted exactly when it is at most half the payment amount", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (amount, fee) => {
      const ok = BigInt(fee) * 2n <= BigInt(amount)
      const r = validateAppFee("subscriptions", amount, fee)
      expect(Result.isSuccess(r)).toBe(ok)
      if (Result.isFailure(r)) {
        expect(r.failure.errors.map((e) => [e.field, e.message, e.request_pointer])).toEqual([["app_fee", APP_FEE_MESSAGE, "/subscriptions/app_fee"]])
      }
    }))
  })

  it("the rule: a fee is within the limit exactly when fee x 10000 <= amount x APP_FEE_MAX_BASIS_POINTS (property)", () => {
    const safe = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
    fc.assert(fc.property(safe, safe, (amount, fee) => {
      const exact = BigInt(fee) * 10_000n <= BigInt(amount) * BigInt(APP_FEE_MAX_BASIS_POINTS)
      expect(isAppFeeWithinLimit(fee, amount)).toBe(exact)
      expect(fee <= maxAppFee(amount)).toBe(exact)
    }))
  })

  it("holds at the top of the safe integers, where float products round", () => {
    const amount = Number.MAX_SAFE_INTEGER
    const half = Math.floor(amount / 2)
    expect(isAppFeeWithinLimit(half, amount)).toBe(true)
    expect(isAppFeeWithinLimit(half + 1, amount)).toBe(false)
  })

  it("has one message, naming the share from core's limit", () => {
    expect(APP_FEE_MESSAGE).toBe(`must be at most ${APP_FEE_MAX_BASIS_POINTS / 100}% of the amount`)
  })
})
