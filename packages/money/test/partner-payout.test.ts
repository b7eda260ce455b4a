import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { type PartnerPayout, assemblePartnerPayout } from "../src/index.ts"

const partner = { id: "CR0PARTNER", bank_reference_prefix: "APPCO" }
const fee = (kind: "app_fee_collected" | "app_fee_refunded", n: number, amount: number, date = "2026-11-20", currency = "GBP") => ({
  kind, currency, date, payment: `PM${n}`, mandate: `MD${n}`, amount
})
const assemble = (entries: ReadonlyArray<unknown>): PartnerPayout => {
  const r = assemblePartnerPayout({ partner, currency: "GBP", date: "2026-11-20", reference_sequence: 3, entries })
  if (Result.isFailure(r)) throw new Error(JSON.stringify(r.failure))
  return r.success
}

describe("partner payouts", () => {
  it("gather one partner's app fees of one day and currency", () => {
    const p = assemble([fee("app_fee_collected", 1, 100), fee("app_fee_collected", 2, 50), fee("app_fee_refunded", 3, 30)])
    expect(p.payout_type).toBe("partner")
    expect(p.amount).toBe(120)
    expect(p.deducted_fees).toBe(0)
    expect(p.tax_currency).toBeNull()
    expect(p.reference).toMatch(/^APPCO-[0-9A-Z]{5}$/)
    expect(p.rendered_items).toEqual([
      { amount: "100.0", type: "app_fee", links: { payment: "PM1", mandate: "MD1" }, taxes: [] },
      { amount: "50.0", type: "app_fee", links: { payment: "PM2", mandate: "MD2" }, taxes: [] },
      { amount: "-30.0", type: "app_fee", links: { payment: "PM3", mandate: "MD3" }, taxes: [] }
    ])
  })

  it("refuse app fees of another day or currency, naming each", () => {
    const r = assemblePartnerPayout({
      partner,
      currency: "GBP",
      date: "2026-11-20",
      reference_sequence: 0,
      entries: [fee("app_fee_collected", 1, 100, "2026-11-19"), fee("app_fee_collected", 2, 100, "2026-11-20", "EUR")]
    })
    expect(Result.isFailure(r) && r.failure._tag === "ValidationFailed" && r.failure.errors.map((e) => e.request_pointer)).toEqual([
      "/payouts/entries/0/date",
      "/payouts/entries/1/currency"
    ])
  })

  it("pay the app fees collected less those refunded", () => {
    const entry = fc.record({ kind: fc.constantFrom("app_fee_collected" as const, "app_fee_refunded" as const), n: fc.nat(99), amount: fc.nat(1_000_000) })
    fc.assert(fc.property(fc.array(entry, { maxLength: 40 }), (es) => {
      const p = assemble(es.map((e) => fee(e.kind, e.n, e.amount)))
      const expected = es.reduce((s, e) => s + (e.kind === "app_fee_collected" ? e.amount : -e.amount), 0)
      expect(p.amount).toBe(expected)
      expect(p.items.every((i) => i.type === "app_fee" && i.amount !== 0)).toBe(true)
    }))
  })
})
