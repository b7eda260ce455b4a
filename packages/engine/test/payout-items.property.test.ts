import { Effect, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CURRENCIES, type Timestamp, unsafeAmount } from "@paykit/core"
import {
  type LedgerEntry, LedgerRepository, merchantTaxInput, type Page, type PayoutItem, PayoutItems, PayoutRepository, payoutTaxDestination
} from "@paykit/engine"
import { assemblePayout, renderPayoutItem } from "@paykit/money"
import { ORG, runEngine } from "./fixtures.ts"

/**
 * The payout items rule, stated on its own: a payout's items add up to the net of the movements
 * it settled (money in, minus fees charged, plus fees refunded), and pages of any size, walked
 * forwards with `after` or backwards with `before`, give each item once, in the one order.
 */

const CREATED = "2026-11-20T06:00:00.000Z" as Timestamp
const PAYOUT = "PO000000000001"
const minor = fc.integer({ min: 0, max: 100_000 }).map(unsafeAmount)
const fee = fc.record({ fee: minor, tax: fc.option(fc.record({ amount: minor, tax_rate_id: fc.constant("GB_VAT_1") }), { nil: null }) })
const refs = { currency: fc.constant("GBP" as const), payment: fc.constant("PM000000000001"), mandate: fc.constant("MD000000000001") }

const entry: fc.Arbitrary<LedgerEntry["entry"]> = fc.oneof(
  fc.record({ kind: fc.constant("payment_paid_out" as const), ...refs, amount: minor, gocardless_fee: fee, app_fee: minor }),
  fc.record({
    kind: fc.constantFrom("late_failure_settled" as const, "chargeback_settled" as const), ...refs, amount: minor,
    refunded_gocardless_fee: fee, refunded_app_fee: minor, surcharge: fee
  }),
  fc.record({ kind: fc.constant("payment_refunded" as const), ...refs, refund: fc.constant("RF000000000001"), amount: minor, gocardless_fee: fee }),
  fc.record({ kind: fc.constantFrom("refund" as const, "refund_funds_returned" as const), currency: fc.constant("GBP" as const), refund: fc.constant("RF000000000002"), amount: minor })
)

const feeTotal = (f: { readonly fee: number; readonly tax: { readonly amount: number } | null }) => f.fee + (f.tax?.amount ?? 0)

/** What a movement adds to the merchant's payout, written from the API's description of each item type. */
const netOf = (e: LedgerEntry["entry"]): number => {
  switch (e.kind) {
    case "payment_paid_out":
      return e.amount - feeTotal(e.gocardless_fee) - e.app_fee
    case "late_failure_settled":
    case "chargeback_settled":
      return -e.amount + feeTotal(e.refunded_gocardless_fee) + e.refunded_app_fee - feeTotal(e.surcharge)
    case "payment_refunded":
      return -e.amount - feeTotal(e.gocardless_fee)
    case "refund":
      return -e.amount
    case "refund_funds_returned":
      return e.amount
  }
}

const seeded = (entries: ReadonlyArray<LedgerEntry["entry"]>) =>
  Effect.gen(function*() {
    yield* Effect.orDie((yield* PayoutRepository).insert(ORG, {
      id: PAYOUT, created_at: CREATED, amount: 0, deducted_fees: 0, currency: "GBP", reference: "PAYKIT-1", status: "paid",
      payout_type: "merchant", arrival_date: null, fx: { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null },
      tax_currency: "GBP", metadata: {}, links: { creditor: "CR000000000001", creditor_bank_account: "BA000000000001" }
    }))
    const ledger = yield* LedgerRepository
    for (const [i, e] of entries.entries()) {
      yield* Effect.orDie(ledger.insert(ORG, { id: `POI${String(i + 1).padStart(12, "0")}`, created_at: CREATED, creditor: "CR000000000001", currency: "GBP", entry: e, payout: PAYOUT }))
    }
  })

/** Every item, one page at a time, forwards (`after`) and then backwards (`before`) from the last page's start. */
const walks = (limit: number) =>
  Effect.gen(function*() {
    const items = yield* PayoutItems
    const all = (yield* items.list(ORG, { payout: PAYOUT, limit: 500 })).items
    const forwards: Array<PayoutItem> = []
    let after: string | null = null
    let lastPageStart: string | null = null
    do {
      const page: Page<PayoutItem> = yield* items.list(ORG, { payout: PAYOUT, limit, ...(after === null ? {} : { after }) })
      forwards.push(...page.items)
      lastPageStart = page.before
      after = page.after
    } while (after !== null)
    const backwards: Array<PayoutItem> = []
    let before = lastPageStart
    while (before !== null) {
      const page = yield* items.list(ORG, { payout: PAYOUT, limit, before })
      backwards.unshift(...page.items)
      before = page.before
    }
    return { all, forwards, backwards }
  })

describe("payout items", () => {
  it("sum to the net of the movements the payout settled; every page size walks each item once, both ways", async () => {
    await fc.assert(fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 6 }), async (entries, limit) => {
      const { all, forwards, backwards } = await runEngine(Effect.andThen(seeded(entries), walks(limit)))
      expect(all.reduce((sum, item) => sum + Number(item.amount), 0)).toBe(entries.reduce((sum, e) => sum + netOf(e), 0))
      expect(forwards).toEqual(all)
      // The backward walk starts before the last forward page, so it holds everything before it.
      const lastPage = forwards.length - (forwards.length % limit === 0 ? limit : forwards.length % limit)
      expect(backwards).toEqual(all.slice(0, lastPage))
    }), { numRuns: 40 })
  })
})

describe("payout item taxes", () => {
  // The items of a payout, as its assembly renders them and as `GET /payout_items` renders them
  // from the stored payout, carry the same tax figures: one rule converts tax for both.
  it("are the same whether rendered by the payout's assembly or read from the stored payout", () => {
    const currency = fc.constantFrom(...CURRENCIES)
    const country = fc.constantFrom("GB", "FR", "US")
    fc.assert(fc.property(currency, country, fc.array(minor, { minLength: 1, maxLength: 3 }), (cur, cc, amounts) => {
      const entries = amounts.map((amount, i) => ({
        kind: "payment_paid_out", currency: cur, payment: `PM${i}`, mandate: `MD${i}`, amount,
        gocardless_fee: { fee: 30, tax: { amount: 6, tax_rate_id: "GB_VAT_4" } }, app_fee: 0
      }))
      const assembled = assemblePayout({
        creditor: { id: "CR0001", bank_reference_prefix: "ACME", country_code: cc },
        currency: cur, reference_sequence: 1, fees_invoiced: false, entries, ...merchantTaxInput(cc, cur)
      })
      if (Result.isFailure(assembled)) throw new Error(JSON.stringify(assembled.failure))
      const payout = assembled.success
      const read = payout.items.map((i) => renderPayoutItem(i, payoutTaxDestination(payout.currency, payout.tax_currency)))
      expect(payout.rendered_items).toEqual(read)
    }))
  })
})
