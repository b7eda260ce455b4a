import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { type LocalDate, addMonths, unsafeLocalDate } from "@paykit/core"
import { DEFAULT_FEE_SCHEDULE, collectionCharges } from "@paykit/money"
import { calendarFor } from "@paykit/schedule"
import { BillingRequests, Creditors, Events, Mandates, Payments, Payouts, Simulator, Subscriptions } from "@paykit/engine"
import { ORG, START, runEngine, edge } from "./fixtures.ts"

const DAY = 86_400_000

/** A billing request taken through every action to a mandate, a monthly subscription on it, and a year. */
const scenario = Effect.gen(function*() {
  const creditors = yield* Creditors
  const creditor = yield* creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
  yield* creditors.createBankAccount(ORG, {
    account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
    links: { creditor: creditor.id }
  })
  yield* creditors.createVerificationDetail(ORG, {
    name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street", city: "London",
    postal_code: "E1 6AN",
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
    links: { creditor: creditor.id }
  })
  const brs = yield* BillingRequests
  const request = yield* brs.create(ORG, { mandate_request: { currency: "GBP", scheme: "bacs" } })
  yield* brs.collectCustomerDetails(ORG, request.id, {
    customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
    customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
  })
  yield* brs.collectBankAccount(ORG, request.id, { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" })
  yield* brs.confirmPayerDetails(ORG, request.id, {})
  const fulfilled = yield* brs.fulfil(ORG, request.id, {})
  const mandateId = fulfilled.mandate_request?.links.mandate ?? ""
  const subscription = yield* Effect.flatMap(edge.subscription({
    amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, name: "Membership", links: { mandate: mandateId }
  }), (c) => Subscriptions.use((service) => service.create(ORG, c)))
  yield* (yield* Simulator).advanceTo(START + 365 * DAY)
  const payments = (yield* (yield* Payments).list(ORG, { subscription: subscription.id, limit: 500 })).items
  const payouts = (yield* (yield* Payouts).list(ORG, { limit: 500 })).items
  const events = (yield* (yield* Events).list(ORG, { limit: 500 })).items
  const mandate = yield* (yield* Mandates).get(ORG, mandateId)
  return { fulfilled, mandate, subscription: yield* (yield* Subscriptions).get(ORG, subscription.id), payments, payouts, events }
})

describe("end to end: billing request, mandate, monthly subscription, a year of collections and payouts", () => {
  it("collects 12 payments on the right business days, pays them out with @paykit/money's fees, and records every event in order", async () => {
    const r = await runEngine(scenario, 7)
    expect(r.fulfilled.status).toBe("fulfilled")
    expect(r.mandate.status).toBe("active")

    // The 1st of each month from December 2026, rolled forward on the Bacs calendar.
    const bacs = calendarFor("bacs")
    const expected: Array<LocalDate> = Array.from({ length: 12 }, (_, i) => bacs.rollForward(addMonths(unsafeLocalDate("2026-12-01"), i)))
    const byDate = [...r.payments].sort((a, b) => ((a.charge_date ?? "") < (b.charge_date ?? "") ? -1 : 1))
    expect(byDate.map((p) => p.charge_date)).toEqual(expected)
    expect(byDate.every((p) => p.status === "paid_out" && p.amount === 1500)).toBe(true)

    // Every payout's amount and fees are what @paykit/money charges for the payments in it.
    const charges = collectionCharges({
      schedule: DEFAULT_FEE_SCHEDULE, scheme: "bacs", currency: "GBP", amount: 1500, app_fee: 0, tax_jurisdiction: "GB",
      date: unsafeLocalDate("2027-01-04"), root: "payments"
    })
    if (charges._tag !== "Success") throw new Error("no charges")
    const feeWithTax = charges.success.gocardless_fee.fee + (charges.success.gocardless_fee.tax?.amount ?? 0)
    expect(r.payouts).toHaveLength(12)
    for (const payout of r.payouts) {
      const inPayout = r.payments.filter((p) => p.links.payout === payout.id)
      expect(inPayout.length).toBeGreaterThan(0)
      expect(payout.amount).toBe(inPayout.length * (1500 - feeWithTax))
      expect(payout.deducted_fees).toBe(inPayout.length * feeWithTax)
      expect(payout.status).toBe("paid")
      expect(payout.reference.startsWith("ACMEGYM-")).toBe(true)
    }

    // Events, oldest first: the mandate's life, then each payment's in order.
    const chronological = [...r.events].reverse()
    const ofMandate = chronological.filter((e) => e.resource_type === "mandates").map((e) => e.action)
    expect(ofMandate).toEqual(["created", "submitted", "active"])
    for (const p of r.payments) {
      const actions = chronological.filter((e) => e.resource_type === "payments" && e.links.payment === p.id).map((e) => e.action)
      expect(actions).toEqual(["created", "submitted", "confirmed", "paid_out"])
    }
    const subscriptionActions = chronological.filter((e) => e.resource_type === "subscriptions").map((e) => e.action)
    expect(subscriptionActions).toEqual(["created", ...Array.from({ length: 12 }, () => "payment_created")])
    const payoutActions = chronological.filter((e) => e.resource_type === "payouts").map((e) => e.action)
    expect(payoutActions).toEqual(Array.from({ length: 12 }, () => "paid"))
    // Ids and timestamps only grow: the log is in the order things happened.
    expect(chronological.map((e) => e.id)).toEqual([...chronological.map((e) => e.id)].sort())
  })

  it("is deterministic: the same seed and inputs give the same resources and events", async () => {
    const [a, b] = [await runEngine(scenario, 11), await runEngine(scenario, 11)]
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
    const c = await runEngine(scenario, 12)
    expect(c.payments.map((p) => p.id)).not.toEqual(a.payments.map((p) => p.id))
  })
})
