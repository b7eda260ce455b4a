import { unsafeLocalDate, OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  AppFeeLedgerRepository, CallingApp, Creditors, eq, type PartnerApp, Payments, PayoutItems, Payouts, Simulator, Subscriptions
} from "@paykit/engine"
import { ORG, runEngine, setUpPayer, edge } from "./fixtures.ts"

const PARTNER = OrganisationId("OR0000000000PP")
const DAY = 86_400_000

/** A partner app's organisation with a verified creditor and GBP payout account. */
const setUpPartner = Effect.gen(function*() {
  const creditors = yield* Creditors
  const creditor = yield* creditors.create(PARTNER, { name: "Fitness Apps", country_code: "GB", creditor_type: "company" })
  yield* creditors.createBankAccount(PARTNER, {
    account_holder_name: "Fitness Apps Ltd", account_number: "55779911", branch_code: "200000",
    country_code: "GB", currency: "GBP", links: { creditor: creditor.id }
  })
  yield* creditors.createVerificationDetail(PARTNER, {
    name: "Fitness Apps Ltd", company_number: "07654321", description: "Software", address_line1: "2 High Street",
    city: "London", postal_code: "E1 6AN", links: { creditor: creditor.id },
    directors: [{ given_name: "Alan", family_name: "Turing", date_of_birth: unsafeLocalDate("1970-01-01"), street: "2 High Street",
      city: "London", postal_code: "E1 6AN", country_code: "GB" }]
  })
  const app: PartnerApp = { organisation: PARTNER, creditor: creditor.id }
  return app
})

const partnerPayouts = Effect.flatMap(Payouts, (p) => p.list(PARTNER, { payout_type: "partner", limit: 500 }))

describe("partner payouts", () => {
  it("credits the app fee of a payment its app created to the partner and pays it out the next day", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const app = yield* setUpPartner
      const { mandate } = yield* setUpPayer(ORG)
      const payments = yield* Payments
      const payment = yield* Effect.provideService(Effect.flatMap(edge.payment({ amount: 10000, currency: "GBP", app_fee: 500, links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)), CallingApp, app)
      // No calling app: the fee is deducted from the merchant but credited to no partner.
      yield* Effect.flatMap(edge.payment({ amount: 10000, currency: "GBP", app_fee: 700, links: { mandate: mandate.id } }), (c) => payments.create(ORG, c))
      yield* (yield* Simulator).advanceBy(20 * DAY)
      const page = yield* partnerPayouts
      return { payment: yield* payments.get(ORG, payment.id), payouts: page.items, app }
    }))
    // The merchant's creditor is unverified, so its own payout waits; the partner's does not.
    expect(r.payment.status).toBe("confirmed")
    expect(r.payouts.map((p) => [p.payout_type, p.amount, p.deducted_fees, p.status, p.links.creditor, p.currency])).toEqual([
      ["partner", 500, 0, "paid", r.app.creditor, "GBP"]
    ])
  })

  it("credits app fees of a subscription's payments to the app that created the subscription", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const app = yield* setUpPartner
      const { mandate } = yield* setUpPayer(ORG)
      yield* Effect.flatMap(edge.subscription({ amount: 2000, currency: "GBP", interval_unit: "monthly", day_of_month: 1, app_fee: 150, links: { mandate: mandate.id } }), (c) => Subscriptions.use((service) => service.create(ORG, c, { app })))
      yield* (yield* Simulator).advanceBy(75 * DAY)
      return (yield* partnerPayouts).items.map((p) => p.amount)
    }))
    expect(r).toEqual([150, 150, 150]) // 1 December, 1 January (collected 4 January), 1 February
  })

  it("a partner payout's items are its app fees, which add up to it", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const app = yield* setUpPartner
      const { mandate } = yield* setUpPayer(ORG)
      const payments = yield* Payments
      for (const app_fee of [500, 250]) {
        yield* Effect.provideService(Effect.flatMap(edge.payment({ amount: 10000, currency: "GBP", app_fee, links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)), CallingApp, app)
      }
      yield* (yield* Simulator).advanceBy(20 * DAY)
      const payout = (yield* partnerPayouts).items[0]
      const items = yield* (yield* PayoutItems).list(PARTNER, { payout: payout?.id ?? "", limit: 1 })
      const rest = yield* (yield* PayoutItems).list(PARTNER, { payout: payout?.id ?? "", after: items.after ?? "" })
      return { amount: payout?.amount, items: [...items.items, ...rest.items] }
    }))
    expect(r.amount).toBe(750)
    expect(r.items.map((i) => [i.type, i.amount]).sort()).toEqual([["app_fee", "250.0"], ["app_fee", "500.0"]])
  })

  it("refuses a calling app whose partner creditor does not exist", async () => {
    const error = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      return yield* Effect.flip(Effect.provideService(Effect.flatMap(edge.payment({ amount: 1000, currency: "GBP", app_fee: 10, links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c))), CallingApp, { organisation: PARTNER, creditor: "CR000MISSING" }))
    }))
    expect(error._tag === "InvalidState" && error.reason).toBe("partner_creditor_not_found")
  })

  it("pays out exactly the app fees collected less those given back on late failures and chargebacks", async () => {
    // Amounts ending 91 fail, 92 fail late, 93 are charged back (the sandbox bank's scenarios).
    const payment = fc.record({
      amount: fc.tuple(fc.integer({ min: 10, max: 500 }), fc.constantFrom(0, 91, 92, 93, 50)).map(([h, e]) => h * 100 + e),
      feePercent: fc.integer({ min: 0, max: 50 }),
      day: fc.integer({ min: 0, max: 10 }),
      byApp: fc.boolean()
    })
    const outcomes: Array<{ readonly paid: number; readonly unpaidNet: number }> = []
    await fc.assert(fc.asyncProperty(fc.array(payment, { minLength: 1, maxLength: 6 }), async (specs) => {
      const r = await runEngine(Effect.gen(function*() {
        const app = yield* setUpPartner
        const { mandate } = yield* setUpPayer(ORG)
        const payments = yield* Payments
        const simulator = yield* Simulator
        const created: Array<{ readonly id: string; readonly fee: number; readonly byApp: boolean }> = []
        for (const s of [...specs].sort((a, b) => a.day - b.day)) {
          yield* simulator.advanceBy(s.day * 3_600_000)
          const fee = Math.floor((s.amount * s.feePercent) / 100)
          const p = yield* Effect.provideService(
            Effect.flatMap(edge.payment({ amount: s.amount, currency: "GBP", ...(fee > 0 ? { app_fee: fee } : {}), links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)),
            CallingApp, s.byApp ? app : null
          )
          created.push({ id: p.id, fee, byApp: s.byApp })
        }
        yield* simulator.advanceBy(30 * DAY)
        let kept = 0
        for (const c of created) {
          const p = yield* payments.get(ORG, c.id)
          if (c.byApp && (p.status === "paid_out" || p.status === "confirmed")) kept += c.fee
        }
        const unpaid = yield* (yield* AppFeeLedgerRepository).scan(PARTNER, { payout: eq("none") })
        const unpaidNet = unpaid.reduce((sum, row) => sum + (row.resource.entry.kind === "app_fee_collected" ? 1 : -1) * row.resource.entry.amount, 0)
        const paid = (yield* partnerPayouts).items.reduce((sum, p) => sum + p.amount, 0)
        return { kept, paid, unpaidNet }
      }))
      // Every fee kept is paid out or still waiting; what waits is never a positive balance
      // older than a day (a debit after its credit was paid out waits for later credits).
      outcomes.push(r)
      expect(r.paid + r.unpaidNet).toBe(r.kept)
      expect(r.unpaidNet).toBeLessThanOrEqual(0)
    }), { numRuns: 12, seed: 2026 })
    // The runs exercised both payouts and debits waiting after a reversal.
    expect(outcomes.some((o) => o.paid > 0)).toBe(true)
    expect(outcomes.some((o) => o.unpaidNet < 0)).toBe(true)
  }, 120_000)
})
