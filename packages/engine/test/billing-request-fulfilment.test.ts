import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { BillingRequests, Simulator, Subscriptions, Payments } from "@paykit/engine"
import { ORG, runBilling, setUpCreditor } from "./billing-fixtures.ts"

const US_PAYER = {
  customer: { email: "grace@example.com", given_name: "Grace", family_name: "Hopper" },
  customer_billing_detail: { address_line1: "1 Main Street", city: "Arlington", region: "VA", postal_code: "22201", country_code: "US", ip_address: "203.0.113.7" }
}
const US_ACCOUNT = { account_holder_name: "Grace Hopper", country_code: "US", bank_code: "026009593", account_number: "123456789", account_type: "checking" }

const fieldsOf = (e: unknown) =>
  typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors) ? e.errors.map((x: { readonly field: string }) => x.field) : e

describe("billing request subscription_request", () => {
  it("is fulfilled into a subscription on the new ACH mandate, linked as subscription_request_subscription", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* BillingRequests
      const created = yield* brs.create(ORG, {
        mandate_request: { currency: "USD", scheme: "ach" },
        subscription_request: { amount: 2500, currency: "USD", interval_unit: "monthly", day_of_month: 15, count: 3, name: "Gym" }
      })
      yield* brs.collectCustomerDetails(ORG, created.id, US_PAYER)
      yield* brs.collectBankAccount(ORG, created.id, US_ACCOUNT)
      yield* brs.confirmPayerDetails(ORG, created.id, {})
      const fulfilled = yield* brs.fulfil(ORG, created.id, {})
      const subscription = yield* (yield* Subscriptions).get(ORG, fulfilled.links.subscription_request_subscription ?? "")
      yield* (yield* Simulator).advanceBy(120 * 86_400_000)
      const payments = yield* (yield* Payments).list(ORG, { subscription: subscription.id })
      return { created, fulfilled, subscription, payments: payments.items.map((p) => [p.charge_date, p.amount, p.scheme]) }
    }))
    expect(r.created.subscription_request?.interval).toBe(1)
    expect(r.fulfilled.status).toBe("fulfilled")
    expect(r.fulfilled.subscription_request?.links.subscription).toBe(r.subscription.id)
    expect(r.subscription.links.mandate).toBe(r.fulfilled.links.mandate_request_mandate)
    expect([r.subscription.amount, r.subscription.currency, r.subscription.count, r.subscription.name, r.subscription.day_of_month]).toEqual([2500, "USD", 3, "Gym", 15])
    expect(r.payments).toHaveLength(3)
    expect(r.payments.every(([, amount, scheme]) => amount === 2500 && scheme === "ach")).toBe(true)
  })

  it("is refused with a Bacs mandate request, and with an amount of 0", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* BillingRequests
      const bacs = yield* Effect.flip(brs.create(ORG, {
        mandate_request: { currency: "GBP", scheme: "bacs" },
        subscription_request: { amount: 2500, currency: "GBP", interval_unit: "monthly" }
      }))
      const zero = yield* Effect.flip(brs.create(ORG, {
        mandate_request: { currency: "USD", scheme: "ach" },
        subscription_request: { amount: 0, currency: "USD", interval_unit: "monthly" }
      }))
      return { bacs: fieldsOf(bacs), zero: fieldsOf(zero) }
    }))
    expect(r.bacs).toEqual(["subscription_request"])
    expect(r.zero).toEqual(["subscription_request.amount"])
  })
})
