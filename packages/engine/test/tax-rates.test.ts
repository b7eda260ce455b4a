import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Creditors, decodeCommand, NEGATIVE_BALANCE_LIMITS_ROOT, NegativeBalanceLimitSetRequest, NegativeBalanceLimits, TaxRates, ascendingPage } from "@paykit/engine"

/** A limit set from a raw body, decoded at the edge as an embedder would (amounts may be strings). */
const setLimit = (body: unknown) =>
  Effect.gen(function*() {
    const command = yield* decodeCommand(NegativeBalanceLimitSetRequest, NEGATIVE_BALANCE_LIMITS_ROOT)(body)
    return yield* (yield* NegativeBalanceLimits).set(ORG, command)
  })
import { ORG, runBilling, setUpCreditor } from "./billing-fixtures.ts"

describe("tax rates", () => {
  it("lists every rate in id order, filters by jurisdiction and pages with cursors", async () => {
    const r = await runBilling(Effect.gen(function*() {
      const t = yield* TaxRates
      const first = yield* t.list({ limit: 2 })
      const second = yield* t.list({ limit: 2, after: first.after ?? "" })
      return { all: yield* t.list({}), gb: yield* t.list({ jurisdiction: "GB" }), first, second, one: yield* t.get("GB_VAT_4"), missing: yield* Effect.flip(t.get("XX_VAT_1")) }
    }))
    expect(r.all.items.map((x) => x.id)).toEqual(["FR_VAT_1", "FR_VAT_2", "GB_VAT_1", "GB_VAT_2", "GB_VAT_3", "GB_VAT_4"])
    expect(r.gb.items.every((x) => x.jurisdiction === "GB")).toBe(true)
    expect(r.first.items.map((x) => x.id)).toEqual(["FR_VAT_1", "FR_VAT_2"])
    expect(r.first.before).toBeNull()
    expect(r.second.items.map((x) => x.id)).toEqual(["GB_VAT_1", "GB_VAT_2"])
    expect(r.second.before).toBe("GB_VAT_1")
    expect(r.one.percentage).toBe("20.0")
    expect(r.missing._tag).toBe("NotFound")
  })

  it("walking `after` cursors visits every item once, in order (property)", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 30 }), fc.integer({ min: 1, max: 7 }), (ids, limit) => {
      const sorted = ids.toSorted().map((id) => ({ id }))
      const seen: Array<string> = []
      let after: string | undefined
      for (let guard = 0; guard <= sorted.length; guard++) {
        const page = ascendingPage(sorted, { limit, ...(after === undefined ? {} : { after }) })
        seen.push(...page.items.map((x) => x.id))
        if (page.after === null) break
        after = page.after
      }
      expect(seen).toEqual(sorted.map((x) => x.id))
    }))
  })
})

describe("negative balance limits", () => {
  it("defaults to 0, the newest limit is in force, and lists filter by currency and creditor", async () => {
    const r = await runBilling(Effect.gen(function*() {
      const creditor = yield* setUpCreditor
      const limits = yield* NegativeBalanceLimits
      const before = yield* limits.limitFor(ORG, creditor.id, "GBP")
      yield* setLimit({ balance_limit: 10000, currency: "GBP", links: { creditor: creditor.id } })
      yield* setLimit({ balance_limit: "25000", currency: "GBP", links: { creditor: creditor.id } })
      yield* setLimit({ balance_limit: 500, currency: "EUR", links: { creditor: creditor.id } })
      const other = yield* (yield* Creditors).create(ORG, { name: "Other Ltd", country_code: "GB", creditor_type: "company" })
      yield* setLimit({ balance_limit: 1, currency: "GBP", links: { creditor: other.id } })
      return {
        before,
        after: yield* limits.limitFor(ORG, creditor.id, "GBP"),
        gbp: yield* limits.list(ORG, { currency: "GBP", creditor: creditor.id }),
        eur: yield* limits.list(ORG, { currency: "EUR" }),
        unknownCreditor: yield* Effect.flip(setLimit({ balance_limit: 1, currency: "GBP", links: { creditor: "CR000000000000" } }))
      }
    }))
    expect(r.before).toBe(0)
    expect(r.after).toBe(25000)
    expect(r.gbp.items.map((l) => l.balance_limit)).toEqual([25000, 10000])
    expect(r.eur.items.map((l) => l.balance_limit)).toEqual([500])
    expect(r.unknownCreditor._tag).toBe("ValidationFailed")
  })
})
