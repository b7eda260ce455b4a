import { APP_FEE_MAX_BASIS_POINTS } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { maxAppFee, validateAppFee } from "../src/index.ts"

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
        expect(r.failure.errors.map((e) => [e.field, e.request_pointer])).toEqual([["app_fee", "/subscriptions/app_fee"]])
      }
    }))
  })
})
