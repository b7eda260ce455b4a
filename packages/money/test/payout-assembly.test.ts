import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  PAYOUT_ITEM_TYPES,
  type PayoutAssembly,
  type SettlementEntry,
  assemblePayout
} from "../src/index.ts"

const creditor = { id: "CR0001", bank_reference_prefix: "ACME", country_code: "GB" }
const fee30 = { fee: 30, tax: { amount: 6, tax_rate_id: "GB_VAT_4" } }
const paidOut = (n: number, amount = 1000, appFee = 0) => ({
  kind: "payment_paid_out",
  currency: "GBP",
  payment: `PM${n}`,
  mandate: `MD${n}`,
  amount,
  gocardless_fee: fee30,
  app_fee: appFee
})

const assemble = (input: Record<string, unknown>): PayoutAssembly => {
  const r = assemblePayout({ creditor, currency: "GBP", reference_sequence: 7, fees_invoiced: false, ...input })
  if (Result.isFailure(r)) throw new Error(JSON.stringify(r.failure))
  return r.success
}

describe("payout assembly: known answers", () => {
  it("3 Bacs payments of £10 for a British merchant: 1% + 20p = 30p fee each plus 6p VAT", () => {
    const p = assemble({ entries: [paidOut(1), paidOut(2), paidOut(3)] })
    expect(p.amount).toBe(3000 - 3 * 36)
    expect(p.deducted_fees).toBe(108)
    expect(p.tax_currency).toBe("GBP")
    expect(p.payout_type).toBe("merchant")
    expect(p.reference).toMatch(/^ACME-[0-9A-HJKMNP-TV-Z]{5}$/)
    expect(p.items.map((i) => [i.type, i.amount])).toEqual([
      ["payment_paid_out", 1000], ["gocardless_fee", -36],
      ["payment_paid_out", 1000], ["gocardless_fee", -36],
      ["payment_paid_out", 1000], ["gocardless_fee", -36]
    ])
    expect(p.rendered_items[1]).toEqual({
      amount: "-36.0",
      type: "gocardless_fee",
      links: { payment: "PM1", mandate: "MD1" },
      taxes: [{
        amount: "6.0",
        currency: "GBP",
        destination_amount: "6.0",
        destination_currency: "GBP",
        exchange_rate: null,
        tax_rate_id: "GB_VAT_4"
      }]
    })
    expect(p.rendered_items[0]).toEqual({ amount: "1000.0", type: "payment_paid_out", links: { payment: "PM1", mandate: "MD1" }, taxes: [] })
  })

  it("a late failure refunds the fee and costs a surcharge", () => {
    const p = assemble({
      entries: [
        paidOut(1), paidOut(2), paidOut(3),
        {
          kind: "late_failure_settled",
          currency: "GBP",
          payment: "PM0",
          mandate: "MD0",
          amount: 1000,
          refunded_gocardless_fee: fee30,
          refunded_app_fee: 0,
          surcharge: { fee: 100, tax: { amount: 20, tax_rate_id: "GB_VAT_4" } }
        }
      ]
    })
    // 3000 - 108 (fees) - 1000 (failed) + 36 (fee refunded) - 120 (surcharge)
    expect(p.amount).toBe(1808)
    expect(p.deducted_fees).toBe(108 - 36 + 120)
    expect(p.items.slice(6).map((i) => [i.type, i.amount, i.taxes.map((t) => t.amount)])).toEqual([
      ["payment_failed", -1000, []],
      ["gocardless_fee", 36, [-6]],
      ["surcharge_fee", -120, [20]]
    ])
  })

  it("deducted fees are negative when a chargeback refunds more fees than the payout charges", () => {
    const p = assemble({
      entries: [
        paidOut(1, 5000),
        {
          kind: "chargeback_settled",
          currency: "GBP",
          payment: "PM0",
          mandate: "MD0",
          amount: 2000,
          refunded_gocardless_fee: { fee: 40, tax: { amount: 8, tax_rate_id: "GB_VAT_4" } },
          refunded_app_fee: 50,
          surcharge: { fee: 0, tax: null }
        }
      ]
    })
    // charged 36, refunded 48 + 50 app fee
    expect(p.deducted_fees).toBe(36 - 48 - 50)
    expect(p.amount).toBe(5000 - 36 - 2000 + 48 + 50)
    expect(p.items.map((i) => i.type)).toEqual(["payment_paid_out", "gocardless_fee", "payment_charged_back", "gocardless_fee", "app_fee"])
  })

  it("app fees are deducted from the merchant's proceeds", () => {
    const p = assemble({ entries: [paidOut(1, 1000, 200)] })
    expect(p.items.map((i) => [i.type, i.amount])).toEqual([["payment_paid_out", 1000], ["gocardless_fee", -36], ["app_fee", -200]])
    expect(p.deducted_fees).toBe(236)
    expect(p.amount).toBe(764)
  })

  it("refunds, refunds not linked to a payment and returned refund funds", () => {
    const p = assemble({
      entries: [
        paidOut(1, 5000),
        { kind: "payment_refunded", currency: "GBP", payment: "PM1", mandate: "MD1", refund: "RF1", amount: 700, gocardless_fee: { fee: 0, tax: null } },
        { kind: "refund", currency: "GBP", refund: "RF2", amount: 300 },
        { kind: "refund_funds_returned", currency: "GBP", refund: "RF3", mandate: "MD3", amount: 300 }
      ]
    })
    expect(p.items.slice(2).map((i) => [i.type, i.amount, i.links])).toEqual([
      ["payment_refunded", -700, { payment: "PM1", mandate: "MD1", refund: "RF1" }],
      ["refund", -300, { refund: "RF2" }],
      ["refund_funds_returned", 300, { refund: "RF3", mandate: "MD3" }]
    ])
    expect(p.amount).toBe(5000 - 36 - 700)
  })

  it("deducts nothing when the merchant is invoiced for fees", () => {
    const p = assemble({ fees_invoiced: true, entries: [paidOut(1), paidOut(2, 1000, 100), paidOut(3)] })
    expect(p.deducted_fees).toBe(0)
    expect(p.amount).toBe(3000)
    expect(p.items.every((i) => i.type === "payment_paid_out")).toBe(true)
  })

  it("has no tax currency outside GB and FR; EUR for a French merchant", () => {
    const us = assemblePayout({ creditor: { ...creditor, country_code: "US" }, currency: "GBP", reference_sequence: 0, fees_invoiced: false, entries: [] })
    expect(Result.isSuccess(us) && us.success.tax_currency).toBeNull()
    const fr = assemblePayout({ creditor: { ...creditor, country_code: "FR" }, currency: "GBP", reference_sequence: 0, fees_invoiced: false, entries: [] })
    expect(Result.isSuccess(fr) && fr.success.tax_currency).toBe("EUR")
  })

  it("converts tax to the tax currency when the payout is in another currency and a rate is known", () => {
    const eur = { ...paidOut(1), currency: "EUR" }
    const withRate = assemble({ currency: "EUR", tax_exchange_rate: "0.85", entries: [eur] })
    expect(withRate.rendered_items[1]?.taxes).toEqual([{
      amount: "6.0", currency: "EUR", destination_amount: "5.0", destination_currency: "GBP", exchange_rate: "0.8500000000", tax_rate_id: "GB_VAT_4"
    }])
    const withoutRate = assemble({ currency: "EUR", entries: [eur] })
    expect(withoutRate.rendered_items[1]?.taxes[0]).toMatchObject({ destination_amount: null, exchange_rate: null, destination_currency: "GBP" })
  })
})

describe("payout assembly: errors are values", () => {
  it("an entry in another currency is a validation error at its pointer", () => {
    const r = assemblePayout({ creditor, currency: "GBP", reference_sequence: 0, fees_invoiced: false, entries: [paidOut(1), { ...paidOut(2), currency: "EUR" }] })
    expect(Result.isFailure(r) && r.failure._tag === "ValidationFailed" && r.failure.errors.map((e) => e.request_pointer)).toEqual(["/payouts/entries/1/currency"])
  })

  it("a malformed prefix, a negative amount or an unknown kind is a validation error", () => {
    const bad = assemblePayout({
      creditor: { ...creditor, bank_reference_prefix: "acme-co" },
      currency: "GBP",
      reference_sequence: 0,
      fees_invoiced: false,
      entries: [{ ...paidOut(1), amount: -5 }]
    })
    expect(Result.isFailure(bad) && bad.failure._tag).toBe("ValidationFailed")
    if (Result.isFailure(bad) && bad.failure._tag === "ValidationFailed") {
      expect(bad.failure.errors.map((e) => e.field)).toContain("creditor.bank_reference_prefix")
    }
    const unknown = assemblePayout({ creditor, currency: "GBP", reference_sequence: 0, fees_invoiced: false, entries: [{ kind: "bonus", currency: "GBP", amount: 1 }] })
    expect(Result.isFailure(unknown)).toBe(true)
  })

  it("sums past 2^53 - 1 fail as InvalidState rather than losing precision", () => {
    const big = Number.MAX_SAFE_INTEGER
    const r = assemblePayout({ creditor, currency: "GBP", reference_sequence: 0, fees_invoiced: false, entries: [paidOut(1, big), paidOut(2, big)] })
    expect(Result.isFailure(r) && r.failure._tag === "InvalidState" && r.failure.reason).toBe("payout_amount_out_of_range")
  })
})

// ---------------------------------------------------------------------------------------------
// Conservation, stated from the entries (not from the items the code builds).

const small = fc.integer({ min: 0, max: 1_000_000 })
const taxedFee = fc.record({
  fee: small,
  tax: fc.option(fc.record({ amount: small, tax_rate_id: fc.constantFrom("GB_VAT_4", "FR_VAT_2") }), { nil: null })
})
const ids = { payment: fc.constant("PM1"), mandate: fc.constant("MD1") }
const entry: fc.Arbitrary<SettlementEntry> = fc.oneof(
  fc.record({ kind: fc.constant("payment_paid_out" as const), currency: fc.constant("GBP" as const), ...ids, amount: small, gocardless_fee: taxedFee, app_fee: small }),
  ...(["late_failure_settled", "chargeback_settled"] as const).map((kind) =>
    fc.record({
      kind: fc.constant(kind),
      currency: fc.constant("GBP" as const),
      ...ids,
      amount: small,
      refunded_gocardless_fee: taxedFee,
      refunded_app_fee: small,
      surcharge: taxedFee
    })
  ),
  fc.record({ kind: fc.constant("payment_refunded" as const), currency: fc.constant("GBP" as const), ...ids, refund: fc.constant("RF1"), amount: small, gocardless_fee: taxedFee }),
  fc.record({ kind: fc.constant("refund" as const), currency: fc.constant("GBP" as const), refund: fc.constant("RF2"), amount: small }),
  fc.record({ kind: fc.constant("refund_funds_returned" as const), currency: fc.constant("GBP" as const), refund: fc.constant("RF3"), amount: small })
) as fc.Arbitrary<SettlementEntry>

const total = (f: { fee: number; tax: { amount: number } | null }) => f.fee + (f.tax?.amount ?? 0)

/** Money movements of an entry, signed as the spec's formula: collected - refunds - chargebacks - late failures. */
const grossOf = (e: SettlementEntry): number => {
  switch (e.kind) {
    case "payment_paid_out":
    case "refund_funds_returned":
      return e.amount
    default:
      return -e.amount
  }
}
/** Fees charged minus fees refunded, tax included. */
const feesOf = (e: SettlementEntry): number => {
  switch (e.kind) {
    case "payment_paid_out":
      return total(e.gocardless_fee) + e.app_fee
    case "late_failure_settled":
    case "chargeback_settled":
      return total(e.surcharge) - total(e.refunded_gocardless_fee) - e.refunded_app_fee
    case "payment_refunded":
      return total(e.gocardless_fee)
    default:
      return 0
  }
}

describe("payout assembly: properties", () => {
  it("amount + deducted fees = collected - refunds - chargebacks - late failures (+ returned refund funds)", () => {
    fc.assert(fc.property(fc.array(entry, { maxLength: 30 }), fc.boolean(), fc.nat({ max: 1000 }), (entries, invoiced, seq) => {
      const p = assemble({ entries, fees_invoiced: invoiced, reference_sequence: seq })
      const gross = entries.reduce((s, e) => s + grossOf(e), 0)
      const fees = entries.reduce((s, e) => s + feesOf(e), 0)
      expect(p.amount + p.deducted_fees).toBe(gross)
      expect(p.deducted_fees).toBe(invoiced ? 0 : fees)
      expect(p.amount).toBe(gross - (invoiced ? 0 : fees))
    }))
  })

  it("the rendered items add up to the amount, use only the API's item types and carry no zero fee", () => {
    fc.assert(fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
      const p = assemble({ entries })
      expect(p.rendered_items.reduce((s, i) => s + Number(i.amount.replace(/\.0$/, "")), 0)).toBe(p.amount)
      for (const i of p.rendered_items) {
        expect(PAYOUT_ITEM_TYPES).toContain(i.type)
        expect(i.amount).toMatch(/^-?\d+\.0$/)
      }
      expect(p.items.filter((i) => i.type !== "payment_paid_out" && i.type.endsWith("fee") && i.amount === 0)).toEqual([])
    }))
  })
})
