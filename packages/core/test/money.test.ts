import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount, CURRENCIES, Currency, OutboundCurrency, decodeInput, formatMinorUnits } from "@paykit/core"

const decodePayment = decodeInput(Schema.Struct({ amount: Amount, currency: Currency }), "payments")

const amountError = (amount: unknown) => {
  const r = decodePayment({ amount, currency: "GBP" })
  return Result.isFailure(r) ? r.failure.errors : []
}

describe("Amount", () => {
  it("decodes the string and the integer form to the same integer", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const fromInt = decodePayment({ amount: n, currency: "GBP" })
        const fromString = decodePayment({ amount: `${n}`, currency: "GBP" })
        expect(Result.isSuccess(fromInt) && fromInt.success.amount).toBe(n)
        expect(Result.isSuccess(fromString) && fromString.success.amount).toBe(n)
      })
    )
  })

  it("rejects negatives, fractions, NaN, numbers past 2^53 and non-numeric text, naming the field", () => {
    const bad = fc.oneof(
      fc.integer({ max: -1 }),
      fc.integer({ max: -1 }).map(String),
      fc.double({ noInteger: true }),
      fc.double({ noInteger: true }).map(String),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, 2 ** 53, 2 ** 60, "9007199254740992", "1e3", "0x10", " 12", "12 ", "", "1,000", "12.00", null, true, {}, [])
    )
    fc.assert(
      fc.property(bad, (amount) => {
        const errors = amountError(amount)
        expect(errors.length).toBeGreaterThan(0)
        expect(errors.every((e) => e.field === "amount" && e.request_pointer === "/payments/amount")).toBe(true)
      })
    )
  })

  it("encodes back to an integer", () => {
    expect(Schema.encodeSync(Amount)(Schema.decodeUnknownSync(Amount)("1500"))).toBe(1500)
  })
})

describe("Currency", () => {
  it("is exactly the spec's eight codes, and outbound payments accept only GBP", () => {
    expect([...CURRENCIES].sort()).toEqual(["AUD", "CAD", "DKK", "EUR", "GBP", "NZD", "SEK", "USD"])
    fc.assert(
      fc.property(fc.string({ minLength: 3, maxLength: 3 }), (code) => {
        const ok = Result.isSuccess(Schema.decodeUnknownResult(Currency)(code))
        expect(ok).toBe((CURRENCIES as ReadonlyArray<string>).includes(code))
      })
    )
    for (const c of CURRENCIES) expect(Result.isSuccess(Schema.decodeUnknownResult(OutboundCurrency)(c))).toBe(c === "GBP")
  })

  it("formats minor units for people", () => {
    expect(formatMinorUnits(1500, "GBP")).toBe("15.00")
    expect(formatMinorUnits(5, "EUR")).toBe("0.05")
    expect(formatMinorUnits(-10000, "GBP")).toBe("-100.00")
  })
})
