import { OrganisationId, unsafeLocalDate } from "@paykit/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { AppAttributionRepository, CallingApp, Creditors, Events, type PartnerApp, Payments, Payouts, Simulator, Subscriptions } from "@paykit/engine"
import { ADA, bankAuthorisationsAtEdge, billingRequestsAtEdge, ORG, runBilling, setUpCreditor } from "./billing-fixtures.ts"
import { edge } from "./fixtures.ts"

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
      // ACH collects under a US creditor's scheme identifier.
      const usCreditor = yield* (yield* Creditors).create(ORG, { name: "Acme Gym US", country_code: "US", creditor_type: "company" })
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, {
        links: { creditor: usCreditor.id },
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

  it("is the app's that created the request, fee or not, whoever fulfils it; a request no app created is the fulfilling app's", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      // Each app is an organisation of its own with the creditor its partner payouts go to.
      const appIn = (organisation: OrganisationId) =>
        Effect.map((Creditors).use((c) => c.create(organisation, { name: `App ${organisation}`, country_code: "GB", creditor_type: "company" })), (c): PartnerApp => ({ organisation, creditor: c.id }))
      const creator = yield* appIn(OrganisationId("OR0000000000PA"))
      const fulfiller = yield* appIn(OrganisationId("OR0000000000PB"))
      const usCreditor = yield* (yield* Creditors).create(ORG, { name: "Acme Gym US", country_code: "US", creditor_type: "company" })
      const brs = yield* billingRequestsAtEdge
      const subscriptionOf = (app: PartnerApp | null, fulfilledBy: PartnerApp | null) =>
        Effect.gen(function*() {
          const created = yield* Effect.provideService(brs.create(ORG, {
            links: { creditor: usCreditor.id },
            mandate_request: { currency: "USD", scheme: "ach" },
            subscription_request: { amount: 2500, currency: "USD", interval_unit: "monthly", name: "Gym" }
          }), CallingApp, app)
          yield* brs.collectCustomerDetails(ORG, created.id, US_PAYER)
          yield* brs.collectBankAccount(ORG, created.id, US_ACCOUNT)
          yield* brs.confirmPayerDetails(ORG, created.id, {})
          const fulfilled = yield* Effect.provideService(brs.fulfil(ORG, created.id, {}), CallingApp, fulfilledBy)
          const attribution = yield* Effect.option((yield* AppAttributionRepository).get(ORG, fulfilled.links.subscription_request_subscription ?? ""))
          return attribution._tag === "Some" ? attribution.value.resource.app : null
        })
      return {
        creator,
        fulfiller,
        byCreatorFulfilledByMerchant: yield* subscriptionOf(creator, null),
        byMerchantFulfilledByApp: yield* subscriptionOf(null, fulfiller),
        byMerchantFulfilledByMerchant: yield* subscriptionOf(null, null)
      }
    }))
    expect(r.byCreatorFulfilledByMerchant).toEqual(r.creator)
    expect(r.byMerchantFulfilledByApp).toEqual(r.fulfiller)
    expect(r.byMerchantFulfilledByMerchant).toBeNull()
  })

  it("is refused with a Bacs mandate request, and with an amount of 0", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
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

/** A verified GB creditor (payouts need one) with a GBP payout account. */
const verifiedCreditor = Effect.gen(function*() {
  const creditor = yield* setUpCreditor
  const creditors = yield* Creditors
  yield* creditors.createBankAccount(ORG, {
    account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000",
    country_code: "GB", currency: "GBP", links: { creditor: creditor.id }
  })
  yield* creditors.createVerificationDetail(ORG, {
    name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street",
    city: "London", postal_code: "E1 6AN", links: { creditor: creditor.id },
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: unsafeLocalDate("1970-01-01"), street: "1 High Street",
      city: "London", postal_code: "E1 6AN", country_code: "GB" }]
  })
  return creditor
})

/** A payment-only billing request taken through institution choice and bank authorisation to fulfilment. */
const payByBank = (paymentRequest: Record<string, unknown>, country: "GB" | "DE") =>
  Effect.gen(function*() {
    const brs = yield* billingRequestsAtEdge
    const bas = yield* bankAuthorisationsAtEdge
    const created = yield* brs.create(ORG, { payment_request: paymentRequest })
    yield* brs.collectCustomerDetails(ORG, created.id, ADA).pipe(Effect.catchTag("InvalidState", () => Effect.void))
    const choice = yield* brs.institutions(ORG, created.id, { country_code: country })
    yield* brs.selectInstitution(ORG, created.id, { institution: choice[0]?.id ?? "", country_code: country })
    const authorisation = yield* bas.create(ORG, { links: { billing_request: created.id } })
    yield* bas.visit(ORG, authorisation.id)
    yield* bas.authorise(ORG, authorisation.id)
    const fulfilled = yield* brs.fulfil(ORG, created.id, {})
    const payment = yield* (yield* Payments).get(ORG, fulfilled.links.payment_request_payment ?? "")
    return { created, fulfilled, payment }
  })

describe("billing request instant payments (Pay by Bank)", () => {
  it("fulfils a payment request without a mandate into a confirmed payment that is paid out", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* verifiedCreditor
      const flow = yield* payByBank({ amount: 2500, currency: "GBP", description: "Order 42" }, "GB")
      yield* (yield* Simulator).advanceBy(3 * 86_400_000)
      const later = yield* (yield* Payments).get(ORG, flow.payment.id)
      const payouts = yield* (yield* Payouts).list(ORG, {})
      const events = yield* (yield* Events).list(ORG, { payment: flow.payment.id, limit: 50 })
      return { ...flow, later, payouts: payouts.items, events: events.items.map((e) => e.action).reverse() }
    }))
    expect(r.created.mandate_request).toBeNull()
    expect(r.fulfilled.status).toBe("fulfilled")
    expect(r.fulfilled.links.mandate_request_mandate).toBeUndefined()
    expect(r.payment.links.mandate).toBeUndefined()
    expect("mandate" in r.payment.links).toBe(false)
    expect([r.payment.status, r.payment.scheme, r.payment.amount, r.payment.charge_date]).toEqual(["confirmed", "faster_payments", 2500, "2026-11-23"])
    expect(r.later.status).toBe("paid_out")
    // 25.00 less the Faster Payments fee (0.20 + 1% = 0.45) and 20% VAT on it (0.09).
    expect(r.payouts.map((p) => [p.amount, p.payout_type])).toEqual([[2446, "merchant"]])
    expect(r.later.links.payout).toBe(r.payouts[0]?.id)
    expect(r.events).toEqual(["created", "submitted", "confirmed", "paid_out"])
  })

  it("pays a EUR request over SEPA Instant, fails one the bank refuses, and never collects either as a direct debit", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* verifiedCreditor
      const instant = yield* payByBank({ amount: 4000, currency: "EUR", scheme: "sepa_instant_credit_transfer" }, "DE")
      const refused = yield* payByBank({ amount: 1291, currency: "GBP" }, "GB")
      yield* (yield* Simulator).advanceBy(20 * 86_400_000)
      const payments = yield* Payments
      return {
        instant: instant.payment, refused: refused.payment,
        instantLater: yield* payments.get(ORG, instant.payment.id), refusedLater: yield* payments.get(ORG, refused.payment.id),
        refund: yield* Effect.flip(Effect.flatMap(edge.refund({ amount: 100, total_amount_confirmation: 100, links: { payment: instant.payment.id } }), (c) => payments.createRefund(ORG, c)))
      }
    }))
    expect([r.instant.status, r.instant.scheme, r.instant.currency]).toEqual(["confirmed", "sepa_instant_credit_transfer", "EUR"])
    // No EUR payout account: it stays confirmed (no late failure, no chargeback ever follows).
    expect(r.instantLater.status).toBe("confirmed")
    expect([r.refused.status, r.refusedLater.status]).toEqual(["failed", "failed"])
    expect(r.refund._tag === "InvalidState" && r.refund.reason).toBe("instant_payment_refunds_not_supported")
  })
})
