import { unsafeLocalDate } from "@paykit/core"
import fc from "fast-check"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  DEFAULT_FEE_SCHEDULE,
  FeeRule,
  FeeSchedule,
  NO_FEE_RULE,
  PAYMENT_SCHEME_CURRENCIES,
  PAYMENT_SCHEMES,
  collectionCharges,
  feeRuleFor,
  serviceFee,
  surchargeCharge,
  taxedFeeTotal
} from "../src/index.ts"

const bacs = feeRuleFor(DEFAULT_FEE_SCHEDULE, "bacs", "GBP")
const rule = fc.record({
  scheme: fc.constantFrom(...PAYMENT_SCHEMES),
  currency: fc.constant("GBP" as const),
  fixed: fc.integer({ min: 0, max: 10_000 }),
  basis_points: fc.integer({ min: 0, max: 10_000 }),
  minimum: fc.integer({ min: 0, max: 10_000 }),
  cap: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null })
}).filter((r) => r.cap === null || r.minimum <= r.cap)
const amount = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })

describe("default fee schedule", () => {
  it("prices every payment scheme in its currency, exactly once, and decodes", () => {
    expect(Schema.decodeUnknownResult(FeeSchedule)(DEFAULT_FEE_SCHEDULE)._tag).toBe("Success")
    for (const scheme of PAYMENT_SCHEMES) {
      const rules = DEFAULT_FEE_SCHEDULE.fees.filter((r) => r.scheme === scheme)
      expect(rules).toHaveLength(1)
      expect(rules[0]?.currency).toBe(PAYMENT_SCHEME_CURRENCIES[scheme])
    }
  })

  it("bacs GBP is 1% + 20p capped at £4", () => {
    expect(bacs).toEqual({ scheme: "bacs", currency: "GBP", fixed: 20, basis_points: 100, minimum: 0, cap: 400 })
    if (bacs === undefined) return
    expect(serviceFee(bacs, 1000)).toBe(30)
    expect(serviceFee(bacs, 20_000)).toBe(220)
    expect(serviceFee(bacs, 38_000)).toBe(400)
    expect(serviceFee(bacs, 100_000)).toBe(400)
    expect(serviceFee(bacs, 150)).toBe(22) // 1.5p rounds to 2p
    expect(serviceFee(bacs, 50)).toBe(20) // 0.5p rounds to 0p
    expect(serviceFee(bacs, 10)).toBe(10) // never more than the payment
    expect(serviceFee(bacs, 0)).toBe(0)
  })

  it("rejects a rule whose minimum exceeds its cap, or a percentage above 100%", () => {
    const base = { scheme: "bacs", currency: "GBP", fixed: 20, basis_points: 100, minimum: 0, cap: 400 }
    expect(Schema.decodeUnknownResult(FeeRule)({ ...base, minimum: 500 })._tag).toBe("Failure")
    expect(Schema.decodeUnknownResult(FeeRule)({ ...base, basis_points: 10_001 })._tag).toBe("Failure")
    expect(Schema.decodeUnknownResult(FeeRule)({ ...base, fixed: -1 })._tag).toBe("Failure")
  })
})

describe("service fees", () => {
  it("never exceed the amount they are charged on, nor the cap, and respect the minimum", () => {
    fc.assert(fc.property(rule, amount, (r, a) => {
      const fee = serviceFee(r, a)
      expect(Number.isSafeInteger(fee)).toBe(true)
      expect(fee >= 0 && fee <= a).toBe(true)
      if (r.cap !== null) expect(fee <= r.cap).toBe(true)
      expect(fee >= Math.min(r.minimum, a)).toBe(true)
    }))
  })

  it("are fixed + percentage (rounded half to even) between minimum and cap", () => {
    fc.assert(fc.property(rule, fc.integer({ min: 0, max: 10_000_000 }), (r, a) => {
      // the percentage part without bigint: a * bps < 2^53 here
      const exact = (a * r.basis_points) / 10_000
      const floor = Math.floor(exact)
      const frac = a * r.basis_points - floor * 10_000
      const pct = frac * 2 > 10_000 || (frac * 2 === 10_000 && floor % 2 === 1) ? floor + 1 : floor
      let expected = Math.max(r.fixed + pct, r.minimum)
      if (r.cap !== null) expected = Math.min(expected, r.cap)
      expect(serviceFee(r, a)).toBe(Math.min(expected, a))
    }))
  })

  it("do not decrease as the amount grows", () => {
    fc.assert(fc.property(rule, amount, amount, (r, a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a]
      expect(serviceFee(r, lo) <= serviceFee(r, hi)).toBe(true)
    }))
  })
})

describe("collection charges", () => {
  const base = {
    schedule: DEFAULT_FEE_SCHEDULE,
    scheme: "bacs" as const,
    currency: "GBP" as const,
    amount: 20_000,
    app_fee: 0,
    tax_jurisdiction: "GB" as const,
    date: unsafeLocalDate("2026-11-21"),
    root: "payments"
  }

  it("a £200 Bacs payment of a British merchant costs £2.20 + 44p VAT = £2.64", () => {
    const r = collectionCharges(base)
    expect(Result.isSuccess(r) && r.success).toEqual({ gocardless_fee: { fee: 220, tax: { amount: 44, tax_rate_id: "GB_VAT_4" } }, app_fee: 0 })
    if (Result.isSuccess(r)) expect(taxedFeeTotal(r.success.gocardless_fee)).toBe(264)
  })

  it("taxes at the rate in force on the day charged; no tax outside GB and FR", () => {
    const in2009 = collectionCharges({ ...base, date: unsafeLocalDate("2009-06-01") })
    expect(Result.isSuccess(in2009) && in2009.success.gocardless_fee.tax).toEqual({ amount: 33, tax_rate_id: "GB_VAT_2" })
    const american = collectionCharges({ ...base, tax_jurisdiction: null })
    expect(Result.isSuccess(american) && american.success.gocardless_fee).toEqual({ fee: 220, tax: null })
    const french = collectionCharges({ ...base, scheme: "sepa_core", currency: "EUR", tax_jurisdiction: "FR", amount: 1000 })
    expect(Result.isSuccess(french) && french.success.gocardless_fee).toEqual({ fee: 30, tax: { amount: 6, tax_rate_id: "FR_VAT_2" } })
  })

  it("rejects an app fee above 50% of the amount on app_fee", () => {
    const r = collectionCharges({ ...base, amount: 1001, app_fee: 501 })
    expect(Result.isFailure(r) && r.failure._tag === "ValidationFailed" && r.failure.errors).toEqual([
      { field: "app_fee", message: "must be at most 50% of the amount", request_pointer: "/payments/app_fee", reason: "validation_failed" }
    ])
    const ok = collectionCharges({ ...base, amount: 1001, app_fee: 500 })
    expect(Result.isSuccess(ok) && ok.success.app_fee).toBe(500)
  })

  it("fails as a value for a scheme and currency the schedule does not price", () => {
    const r = collectionCharges({ ...base, currency: "EUR" })
    expect(Result.isFailure(r) && r.failure._tag === "InvalidState" && r.failure.reason).toBe(NO_FEE_RULE)
  })

  it("surcharges late failures and chargebacks, with tax", () => {
    const date = unsafeLocalDate("2026-11-21")
    expect(surchargeCharge(DEFAULT_FEE_SCHEDULE, "late_failure_settled", "GBP", "GB", date)).toEqual({
      fee: 100,
      tax: { amount: 20, tax_rate_id: "GB_VAT_4" }
    })
    expect(surchargeCharge(DEFAULT_FEE_SCHEDULE, "chargeback_settled", "SEK", null, date)).toEqual({ fee: 5000, tax: null })
    expect(surchargeCharge({ fees: [], surcharges: [] }, "chargeback_settled", "GBP", "GB", date).fee).toBe(0)
  })
})
