import fc from "fast-check"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { NOT_EXCHANGED, type PayoutFx, PayoutFxState, renderPayoutFx } from "../src/index.ts"

const state = (u: unknown) => Schema.decodeUnknownSync(PayoutFxState)(u)
const fx = (amount: number, u: unknown): PayoutFx => {
  const r = renderPayoutFx("GBP", amount, state(u))
  if (Result.isFailure(r)) throw new Error(JSON.stringify(r.failure))
  return r.success
}

describe("payout fx", () => {
  it("is all null when the payout is not exchanged", () => {
    expect(fx(2892, { kind: "not_exchanged" })).toEqual(NOT_EXCHANGED)
    expect(NOT_EXCHANGED).toEqual({ fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null })
  })

  it("before payout: only the currency and an estimated rate", () => {
    expect(fx(2892, { kind: "estimated", fx_currency: "EUR", estimated_exchange_rate: "1.15" })).toEqual({
      fx_currency: "EUR", fx_amount: null, exchange_rate: null, estimated_exchange_rate: "1.1500000000"
    })
  })

  it("after the rate is confirmed: the rate and the exchanged amount, no estimate", () => {
    expect(fx(2892, { kind: "confirmed", fx_currency: "EUR", exchange_rate: "1.15" })).toEqual({
      fx_currency: "EUR", fx_amount: 3326, exchange_rate: "1.1500000000", estimated_exchange_rate: null
    })
  })

  it("exchanging into the payout's own currency is a validation error on fx.fx_currency", () => {
    const r = renderPayoutFx("GBP", 100, state({ kind: "confirmed", fx_currency: "GBP", exchange_rate: "1" }))
    expect(Result.isFailure(r) && r.failure._tag === "ValidationFailed" && r.failure.errors[0]?.request_pointer).toBe("/payouts/fx/fx_currency")
  })

  it("rates with more than 10 decimal places do not decode", () => {
    expect(Schema.decodeUnknownResult(PayoutFxState)({ kind: "confirmed", fx_currency: "EUR", exchange_rate: "1.00000000001" })._tag).toBe("Failure")
  })

  it("the confirmed fx_amount is exactly the amount at rate 1.0 and grows with the amount", () => {
    fc.assert(fc.property(fc.nat({ max: 2 ** 45 }), fc.nat({ max: 2 ** 45 }), (a, b) => {
      expect(fx(a, { kind: "confirmed", fx_currency: "EUR", exchange_rate: "1.0" }).fx_amount).toBe(a)
      const fa = fx(Math.min(a, b), { kind: "confirmed", fx_currency: "EUR", exchange_rate: "0.8765432109" }).fx_amount ?? 0
      const fb = fx(Math.max(a, b), { kind: "confirmed", fx_currency: "EUR", exchange_rate: "0.8765432109" }).fx_amount ?? 0
      expect(fa <= fb).toBe(true)
    }))
  })
})
