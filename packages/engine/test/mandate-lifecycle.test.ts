import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, addMonths, MANDATE_SCHEMES, unsafeLocalDate } from "@paykit/core"
import {
  BACS_DORMANCY_MONTHS, BillingRequests, Creditors, Customers, Events, Mandates, Payments, Simulator, dormancyExpiryDate, isDormant
} from "@paykit/engine"
import { ADA, ORG as BR_ORG, UK_ACCOUNT, runBilling, setUpCreditor } from "./billing-fixtures.ts"
import { ORG, runEngine, setUpPayer, edge } from "./fixtures.ts"

const DAY = 86_400_000

describe("mandates awaiting the customer's approval", () => {
  it("a dual-signature billing request gives a pending_customer_approval mandate, approved by the next run, then submitted and active", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* BillingRequests
      const created = yield* brs.create(BR_ORG, { mandate_request: { currency: "GBP", scheme: "bacs" } })
      yield* brs.collectCustomerDetails(BR_ORG, created.id, ADA)
      yield* brs.collectBankAccount(BR_ORG, created.id, UK_ACCOUNT)
      yield* brs.confirmPayerDetails(BR_ORG, created.id, { payer_requested_dual_signature: true })
      const fulfilled = yield* brs.fulfil(BR_ORG, created.id, {})
      const mandates = yield* Mandates
      const id = fulfilled.links.mandate_request_mandate ?? ""
      const atCreation = yield* mandates.get(BR_ORG, id)
      const simulator = yield* Simulator
      yield* simulator.advanceBy(DAY)
      const afterOneRun = yield* mandates.get(BR_ORG, id)
      yield* simulator.advanceBy(DAY)
      const afterTwoRuns = yield* mandates.get(BR_ORG, id)
      const events = yield* (yield* Events).list(BR_ORG, { mandate: id, limit: 20 })
      return { atCreation, afterOneRun, afterTwoRuns, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(r.atCreation.status).toBe("pending_customer_approval")
    expect(r.atCreation.next_possible_charge_date).not.toBeNull()
    expect(r.afterOneRun.status).toBe("submitted")
    expect(r.afterTwoRuns.status).toBe("active")
    expect(r.actions).toEqual(["created", "customer_approval_granted", "submitted", "active"])
  })

  it("PayTo mandates wait for approval; approving a mandate not waiting for it is refused", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { given_name: "Bruce", family_name: "Wayne" })
      const au = yield* customers.createBankAccount(ORG, {
        account_holder_name: "Bruce Wayne", country_code: "AU", branch_code: "082-902", account_number: "123456789", links: { customer: customer.id }
      })
      const mandates = yield* Mandates
      // PayTo collects under an Australian creditor's scheme identifier.
      const auCreditor = yield* (yield* Creditors).create(ORG, { name: "Acme Gym AU", country_code: "AU", creditor_type: "company" })
      const payTo = yield* mandates.create(ORG, { scheme: "pay_to", links: { customer_bank_account: au.id, creditor: auCreditor.id } })
      const approved = yield* mandates.grantCustomerApproval(ORG, payTo.id)
      const refused = yield* Effect.flip(mandates.grantCustomerApproval(ORG, mandate.id))
      return { payTo: payTo.status, approved: approved.status, bacs: mandate.status, refused }
    }))
    expect([r.payTo, r.approved, r.bacs]).toEqual(["pending_customer_approval", "pending_submission", "pending_submission"])
    expect(r.refused._tag === "InvalidState" && r.refused.reason).toBe("mandate_not_pending_customer_approval")
  })
})

describe("dormant Bacs mandates expire", () => {
  it("a mandate with no payment expires 13 months after creation, not a day before", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const mandates = yield* Mandates
      const simulator = yield* Simulator
      const expiry = dormancyExpiryDate(unsafeLocalDate(mandate.created_at.slice(0, 10)))
      // The run of the day before the expiry date, then the run of the expiry date.
      yield* simulator.advanceTo(Date.parse(`${addDays(expiry, -1)}T07:00:00Z`))
      const before = yield* mandates.get(ORG, mandate.id)
      yield* simulator.advanceTo(Date.parse(`${expiry}T07:00:00Z`))
      const after = yield* mandates.get(ORG, mandate.id)
      const events = yield* (yield* Events).list(ORG, { mandate: mandate.id, action: "expired" })
      return { expiry, before: before.status, after: after.status, cause: events.items[0]?.details.cause }
    }))
    expect(r.expiry).toBe("2027-12-23")
    expect([r.before, r.after, r.cause]).toEqual(["active", "expired", "mandate_expired"])
  })

  it("counts 13 months from the last payment's charge date", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payment = yield* Effect.flatMap(edge.payment({ amount: 1000, currency: "GBP", charge_date: "2027-03-01", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c)))
      const simulator = yield* Simulator
      const mandates = yield* Mandates
      yield* simulator.advanceTo(Date.parse("2028-03-31T07:00:00Z"))
      const before = yield* mandates.get(ORG, mandate.id)
      yield* simulator.advanceTo(Date.parse("2028-04-01T07:00:00Z"))
      const after = yield* mandates.get(ORG, mandate.id)
      return { charged: (yield* (yield* Payments).get(ORG, payment.id)).status, before: before.status, after: after.status }
    }))
    expect(r).toEqual({ charged: "confirmed", before: "active", after: "expired" })
  }, 30_000)

  it("isDormant holds exactly from BACS_DORMANCY_MONTHS after the last use, and only on Bacs (property)", () => {
    const day = fc.integer({ min: 0, max: 20_000 }).map((n) => addDays(unsafeLocalDate("2000-01-01"), n))
    fc.assert(fc.property(day, fc.integer({ min: 0, max: 800 }), fc.constantFrom(...MANDATE_SCHEMES), (lastUse, after, scheme) => {
      const today = addDays(lastUse, after)
      expect(isDormant(scheme, lastUse, today)).toBe(scheme === "bacs" && today >= addMonths(lastUse, BACS_DORMANCY_MONTHS))
      // Never sooner than 13 whole months minus the month-end clamp (at least 393 days), never later than 397.
      if (scheme === "bacs") {
        if (after < 393) expect(isDormant(scheme, lastUse, today)).toBe(false)
        if (after >= 397) expect(isDormant(scheme, lastUse, today)).toBe(true)
      }
    }))
  })
})
