import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CURRENCIES, MANDATE_SCHEMES } from "@paykit/core"
import { templateIssues } from "@paykit/engine"
import { MANDATE_SCHEMES_BY_CURRENCY, PAYMENT_REQUEST_CURRENCIES, PAYMENT_REQUEST_SCHEMES, PAYMENT_REQUEST_SCHEMES_BY_CURRENCY } from "@paykit/validation"

/**
 * The rules between a billing request template's fields, stated as the rules themselves over
 * every combination of the fields they read (each present or absent).
 */

const maybe = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })
const template = fc.record({
  mandate_request_currency: maybe(fc.constantFrom(...CURRENCIES)),
  mandate_request_scheme: maybe(fc.constantFrom(...MANDATE_SCHEMES)),
  payment_request_amount: maybe(fc.integer({ min: 1, max: 1_000_000 })),
  payment_request_currency: maybe(fc.constantFrom(...PAYMENT_REQUEST_CURRENCIES)),
  payment_request_scheme: maybe(fc.constantFrom(...PAYMENT_REQUEST_SCHEMES))
})
type Drawn = typeof template extends fc.Arbitrary<infer T> ? T : never
type Fields = Parameters<typeof templateIssues>[0]
/** The fields as the Schema decodes them: an absent one is no key at all. */
const given = (t: Partial<Record<keyof Drawn, unknown>>): Fields => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)) as Fields
const blamed = (t: Drawn): ReadonlySet<string> => new Set(templateIssues(given(t)).map((i) => String(i.path[0])))

describe("billing request template rules", () => {
  it("a mandate scheme is blamed exactly when its currency does not offer it, or it is missing beside a payment request", () => {
    fc.assert(fc.property(template, (t) => {
      const payment = t.payment_request_amount !== undefined || t.payment_request_currency !== undefined || t.payment_request_scheme !== undefined
      const wrong = t.mandate_request_scheme !== undefined && t.mandate_request_currency !== undefined &&
        !MANDATE_SCHEMES_BY_CURRENCY[t.mandate_request_currency].includes(t.mandate_request_scheme)
      const missing = t.mandate_request_scheme === undefined && t.mandate_request_currency !== undefined && payment
      expect(blamed(t).has("mandate_request_scheme")).toBe(wrong || missing)
    }))
  })

  it("a payment request has its amount and currency together, and a scheme of that currency", () => {
    fc.assert(fc.property(template, (t) => {
      const payment = t.payment_request_amount !== undefined || t.payment_request_currency !== undefined || t.payment_request_scheme !== undefined
      const issues = blamed(t)
      expect(issues.has("payment_request_amount")).toBe(payment && t.payment_request_amount === undefined)
      const wrongScheme = t.payment_request_scheme !== undefined && t.payment_request_currency !== undefined &&
        !PAYMENT_REQUEST_SCHEMES_BY_CURRENCY[t.payment_request_currency].includes(t.payment_request_scheme)
      expect(issues.has("payment_request_scheme")).toBe(wrongScheme)
    }))
  })

  it("a template requests something: with no payment request, the mandate currency is required (and so with a mandate scheme)", () => {
    fc.assert(fc.property(template, (t) => {
      const payment = t.payment_request_amount !== undefined || t.payment_request_currency !== undefined || t.payment_request_scheme !== undefined
      const required = t.mandate_request_currency === undefined && (!payment || t.mandate_request_scheme !== undefined)
      expect(blamed(t).has("mandate_request_currency")).toBe(required)
    }))
  })

  it("a template whose fields agree has no issue", () => {
    fc.assert(fc.property(fc.constantFrom(...CURRENCIES), fc.constantFrom(...PAYMENT_REQUEST_CURRENCIES), fc.integer({ min: 1 }), (currency, paymentCurrency, amount) => {
      const scheme = MANDATE_SCHEMES_BY_CURRENCY[currency][0]
      const paymentScheme = PAYMENT_REQUEST_SCHEMES_BY_CURRENCY[paymentCurrency][0]
      expect(templateIssues(given({
        mandate_request_currency: currency, mandate_request_scheme: scheme,
        payment_request_amount: amount, payment_request_currency: paymentCurrency, payment_request_scheme: paymentScheme
      }))).toEqual([])
    }))
  })
})
