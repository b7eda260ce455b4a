import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CURRENCIES, MANDATE_SCHEMES } from "@paykit/core"
import { isAppFeeWithinLimit } from "@paykit/money"
import { MANDATE_SCHEMES_BY_CURRENCY, validateBillingRequestCreate } from "../src/index.ts"
import { errorsOf, expectSuccess, pointersOf } from "./helpers.ts"

const validate = validateBillingRequestCreate
const vrpMandate = (extra: Record<string, unknown> = {}) => ({
  currency: "GBP",
  scheme: "faster_payments",
  sweeping: true,
  constraints: { max_amount_per_payment: 5000, periodic_limits: [{ period: "month", max_total_amount: 20000 }] },
  ...extra
})

describe("mandate_request scheme per currency", () => {
  it("known answers", () => {
    expectSuccess(validate({ mandate_request: { currency: "GBP", scheme: "bacs" } }))
    expectSuccess(validate({ mandate_request: { currency: "EUR", scheme: "sepa_core" } }))
    expectSuccess(validate({ mandate_request: { currency: "SEK" } }))
    const errors = errorsOf(validate({ mandate_request: { currency: "GBP", scheme: "sepa_core" } }))
    expect(errors).toEqual([
      {
        field: "mandate_request.scheme",
        message: "is not available for GBP; use one of bacs, faster_payments",
        request_pointer: "/billing_requests/mandate_request/scheme",
        reason: "validation_failed"
      }
    ])
  })

  it("a scheme is rejected at mandate_request/scheme iff it is not one of its currency's", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), fc.constantFrom(...MANDATE_SCHEMES), (currency, scheme) => {
        const rejected = pointersOf(validate({ mandate_request: { currency, scheme } })).includes(
          "/billing_requests/mandate_request/scheme"
        )
        expect(rejected).toBe(!MANDATE_SCHEMES_BY_CURRENCY[currency].includes(scheme))
      })
    )
  })

  it("an unknown currency or verify level fails at its field", () => {
    expect(pointersOf(validate({ mandate_request: { currency: "JPY", verify: "sometimes" } }))).toEqual([
      "/billing_requests/mandate_request/currency",
      "/billing_requests/mandate_request/verify"
    ])
  })

  it("sweeping is required for Faster Payments; authorisation_source and consent_type follow the scheme", () => {
    const { sweeping: _omitted, ...noSweeping } = vrpMandate()
    expect(pointersOf(validate({ mandate_request: noSweeping }))).toEqual(["/billing_requests/mandate_request/sweeping"])
    expect(pointersOf(validate({ mandate_request: { currency: "GBP", scheme: "bacs", authorisation_source: "web" } }))).toEqual([
      "/billing_requests/mandate_request/authorisation_source"
    ])
    expectSuccess(validate({ mandate_request: { currency: "USD", scheme: "ach", authorisation_source: "telephone", consent_type: "standing" } }))
    expectSuccess(validate({ mandate_request: { currency: "CAD", scheme: "pad", consent_type: "sporadic" } }))
    expect(pointersOf(validate({ mandate_request: { currency: "CAD", scheme: "pad", consent_type: "standing" } }))).toEqual([
      "/billing_requests/mandate_request/consent_type"
    ])
    expect(pointersOf(validate({ mandate_request: { currency: "EUR", scheme: "sepa_core", consent_type: "recurring" } }))).toEqual([
      "/billing_requests/mandate_request/consent_type"
    ])
  })
})

describe("constraints and periodic limits", () => {
  const base = "/billing_requests/mandate_request/constraints"

  it("a VRP mandate needs max_amount_per_payment and exactly one periodic limit with max_total_amount", () => {
    expectSuccess(validate({ mandate_request: vrpMandate() }))
    expect(pointersOf(validate({ mandate_request: { currency: "GBP", scheme: "faster_payments", sweeping: false } }))).toEqual([
      `${base}/max_amount_per_payment`,
      `${base}/periodic_limits`
    ])
    expect(
      pointersOf(
        validate({
          mandate_request: vrpMandate({
            constraints: { max_amount_per_payment: 100, periodic_limits: [{ period: "week", max_payments: 3 }] }
          })
        })
      )
    ).toEqual([`${base}/periodic_limits/0/max_total_amount`, `${base}/periodic_limits/0/max_payments`])
  })

  it("every VRP request whose periodic_limits does not hold exactly one limit fails there", () => {
    const limit = { period: "month", max_total_amount: 1000 }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }).filter((n) => n !== 1), (n) => {
        const r = validate({
          mandate_request: vrpMandate({ constraints: { max_amount_per_payment: 10, periodic_limits: Array.from({ length: n }, () => limit) } })
        })
        expect(pointersOf(r)).toContain(`${base}/periodic_limits`)
      })
    )
  })

  it("PayTo: max_total_amount is not permitted on any limit, max_payments is, periods are required", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            period: fc.option(fc.constantFrom("day", "week", "month", "year", "flexible"), { nil: undefined }),
            max_total_amount: fc.option(fc.integer({ min: 1, max: 10 ** 9 }), { nil: undefined }),
            max_payments: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined })
          }, { requiredKeys: [] }),
          { maxLength: 5 }
        ),
        (limits) => {
          const clean = limits.map((l) => Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)))
          const pointers = pointersOf(
            validate({ mandate_request: { currency: "AUD", scheme: "pay_to", constraints: { max_amount_per_payment: 100, periodic_limits: clean } } })
          )
          const expected = clean.flatMap((l, i) => [
            ...(l["period"] === undefined ? [`${base}/periodic_limits/${i}/period`] : []),
            ...(l["max_total_amount"] === undefined ? [] : [`${base}/periodic_limits/${i}/max_total_amount`])
          ])
          expect(pointers).toEqual(expected)
        }
      )
    )
  })

  it("end_date must be after start_date; payment_method only for ACH and PAD", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: -400, max: 400 }), (startDay, offset) => {
        const start = new Date(Date.UTC(2026, 0, 1 + startDay)).toISOString().slice(0, 10)
        const end = new Date(Date.UTC(2026, 0, 1 + startDay + offset)).toISOString().slice(0, 10)
        const pointers = pointersOf(
          validate({ mandate_request: { currency: "USD", scheme: "ach", constraints: { start_date: start, end_date: end, payment_method: "card" } } })
        )
        expect(pointers.includes(`${base}/end_date`)).toBe(offset <= 0)
        expect(pointers.includes(`${base}/payment_method`)).toBe(false)
      })
    )
    expect(pointersOf(validate({ mandate_request: { currency: "GBP", scheme: "bacs", constraints: { payment_method: "x" } } }))).toEqual([
      `${base}/payment_method`
    ])
  })
})

describe("payment_request", () => {
  it("known answers: GBP over Faster Payments, EUR over SEPA credit transfers", () => {
    expectSuccess(validate({ payment_request: { currency: "GBP", amount: 1000, scheme: "faster_payments" } }))
    expectSuccess(validate({ payment_request: { currency: "EUR", amount: "1000", scheme: "sepa_instant_credit_transfer" } }))
    expect(pointersOf(validate({ payment_request: { currency: "EUR", amount: 1000, scheme: "faster_payments" } }))).toEqual([
      "/billing_requests/payment_request/scheme"
    ])
    expect(errorsOf(validate({ payment_request: { currency: "USD", amount: 1000 } }))[0]?.message).toBe("must be GBP or EUR for payment requests")
    expect(pointersOf(validate({ payment_request: { currency: "GBP", amount: 0 } }))).toEqual(["/billing_requests/payment_request/amount"])
  })

  it("an app fee is accepted iff 2 * app_fee <= amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (amount, appFee) => {
        const accepted = pointersOf(validate({ payment_request: { currency: "GBP", amount, app_fee: appFee } })).length === 0
        expect(accepted).toBe(2n * BigInt(appFee) <= BigInt(amount))
        expect(isAppFeeWithinLimit(appFee, amount)).toBe(accepted)
      })
    )
  })

  it("a reference is accepted only for PayTo or Faster Payments with direct funds settlement", () => {
    expectSuccess(validate({ payment_request: { currency: "GBP", amount: 10, reference: "INV-1", funds_settlement: "direct" } }))
    expect(pointersOf(validate({ payment_request: { currency: "GBP", amount: 10, reference: "INV-1" } }))).toEqual([
      "/billing_requests/payment_request/reference"
    ])
    expect(pointersOf(validate({ payment_request: { currency: "EUR", amount: 10, reference: "INV-1", funds_settlement: "direct" } }))).toEqual([
      "/billing_requests/payment_request/reference"
    ])
  })

  it("a payment_request beside a mandate_request needs the mandate scheme", () => {
    expect(pointersOf(validate({ mandate_request: { currency: "GBP" }, payment_request: { currency: "GBP", amount: 10 } }))).toEqual([
      "/billing_requests/mandate_request/scheme"
    ])
  })
})

describe("subscription_request and instalment_schedule_request", () => {
  const subscription = { amount: 2500, currency: "USD", interval_unit: "monthly", day_of_month: 5 }

  it("are accepted only with an ACH or PAD mandate request", () => {
    expectSuccess(validate({ mandate_request: { currency: "USD", scheme: "ach" }, subscription_request: subscription }))
    expectSuccess(validate({ mandate_request: { currency: "CAD", scheme: "pad" }, instalment_schedule_request: { name: "x" } }))
    fc.assert(
      fc.property(fc.constantFrom(...MANDATE_SCHEMES), fc.boolean(), (scheme, instalments) => {
        const currency = CURRENCIES.find((c) => MANDATE_SCHEMES_BY_CURRENCY[c].includes(scheme)) ?? "GBP"
        const field = instalments ? "instalment_schedule_request" : "subscription_request"
        const body = { mandate_request: { currency, scheme }, [field]: instalments ? {} : { ...subscription, currency } }
        const pointers = pointersOf(validate(body))
        expect(pointers.includes(`/billing_requests/${field}`)).toBe(scheme !== "ach" && scheme !== "pad")
      })
    )
    expect(pointersOf(validate({ subscription_request: subscription }))).toEqual(["/billing_requests/subscription_request"])
  })

  it("day_of_month, interval and count decode as on POST /subscriptions: an integer or its decimal string (property)", () => {
    const ach = { currency: "USD", scheme: "ach" }
    expectSuccess(validate({ mandate_request: ach, subscription_request: { ...subscription, day_of_month: "12", interval: "2", count: "3" } }))
    expectSuccess(validate({ mandate_request: ach, subscription_request: { ...subscription, day_of_month: "-1", month: null } }))
    fc.assert(
      fc.property(fc.integer({ min: -40, max: 40 }), fc.boolean(), (day, asString) => {
        const body = { mandate_request: ach, subscription_request: { ...subscription, day_of_month: asString ? String(day) : day } }
        const valid = (day >= 1 && day <= 28) || day === -1
        expect(pointersOf(validate(body))).toEqual(valid ? [] : ["/billing_requests/subscription_request/day_of_month"])
      })
    )
    for (const bad of ["12.5", "twelve", 12.5, ""]) {
      expect(pointersOf(validate({ mandate_request: ach, subscription_request: { ...subscription, day_of_month: bad } })))
        .toEqual(["/billing_requests/subscription_request/day_of_month"])
    }
  })

  it("its currency must match the mandate's, its app fee at most half its amount", () => {
    expect(
      pointersOf(validate({ mandate_request: { currency: "USD", scheme: "ach" }, subscription_request: { ...subscription, currency: "CAD", app_fee: 1251 } }))
    ).toEqual(["/billing_requests/subscription_request/app_fee", "/billing_requests/subscription_request/currency"])
  })
})

describe("every error is collected", () => {
  it("field errors of several sub-objects come together", () => {
    const pointers = pointersOf(
      validate({
        mandate_request: { currency: "XXX", verify: "never" },
        payment_request: { currency: "GBP", amount: -1 },
        metadata: { a: "1", b: "2", c: "3", d: "4" }
      })
    )
    expect(pointers).toEqual([
      "/billing_requests/mandate_request/currency",
      "/billing_requests/mandate_request/verify",
      "/billing_requests/payment_request/amount",
      "/billing_requests/metadata"
    ])
  })

  it("cross-field errors of several sub-objects come together", () => {
    const pointers = pointersOf(
      validate({
        mandate_request: { currency: "GBP", scheme: "pay_to", authorisation_source: "web" },
        payment_request: { currency: "GBP", amount: 10, app_fee: 6, reference: "R" }
      })
    )
    expect(pointers).toEqual([
      "/billing_requests/mandate_request/scheme",
      "/billing_requests/mandate_request/authorisation_source",
      "/billing_requests/mandate_request/constraints/max_amount_per_payment",
      "/billing_requests/payment_request/app_fee"
    ])
  })

  it("every metadata over 3 keys fails at /billing_requests/metadata", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { minKeys: 4, maxKeys: 8 }), (metadata) => {
        fc.pre(Object.keys(metadata).length > 3)
        expect(pointersOf(validate({ metadata }))).toContain("/billing_requests/metadata")
      })
    )
  })
})
