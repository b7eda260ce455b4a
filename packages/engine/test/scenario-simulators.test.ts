import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MILLIS_PER_DAY } from "@paykit/core"
import { Creditors, Customers, Events, Mandates, Payments, SCENARIO_NAMES, ScenarioSimulators, Simulator } from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { edge, ORG, runEngine } from "./fixtures.ts"

/**
 * A model of the payment scenarios: for random sequences of them on one payment, the status
 * follows this table (written here, not read from the machine or the scenarios' paths), a
 * scenario the table has no entry for is refused with 422 and changes nothing, and every accepted
 * one records events.
 */

type Status = "pending_submission" | "submitted" | "confirmed" | "paid_out" | "failed" | "charged_back"

const MODEL = {
  payment_submitted: { pending_submission: "submitted" },
  payment_confirmed: { pending_submission: "confirmed" },
  payment_paid_out: { pending_submission: "paid_out" },
  payment_failed: { pending_submission: "failed" },
  payment_charged_back: { pending_submission: "charged_back", paid_out: "charged_back" },
  payment_late_failure: { pending_submission: "failed", paid_out: "failed" }
} as const satisfies Record<string, Partial<Record<Status, Status>>>
type Name = keyof typeof MODEL
const NAMES = Object.keys(MODEL) as ReadonlyArray<Name>

const next = (name: Name, status: Status): Status | undefined => (MODEL[name] as Partial<Record<Status, Status>>)[status]

/** A verified creditor with a verified payout account, and an active Bacs mandate. */
const activeMandate = Effect.gen(function*() {
  const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true })
  yield* (yield* Creditors).completeReviews(ORG)
  yield* (yield* ScenarioSimulators).run(ORG, "mandate_activated", { links: { resource: mandate.id } })
  return mandate.id
})

/** How many events the payment has. */
const eventCount = (payment: string) => Effect.gen(function*() {
  return (yield* (yield* Events).list(ORG, { payment, limit: 500 })).items.length
})

describe("payment scenarios against a model", () => {
  it("follow the model's table for random sequences, refusing (422, nothing changed) what it has no entry for", async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 }), async (sequence) => {
      await runEngine(Effect.gen(function*() {
        const mandate = yield* activeMandate
        const payments = yield* Payments
        const simulators = yield* ScenarioSimulators
        const payment = yield* payments.create(ORG, yield* edge.payment({ amount: 1000, currency: "GBP", links: { mandate } }))
        let status: Status = "pending_submission"
        for (const name of sequence) {
          const expected = next(name, status)
          const before = yield* eventCount(payment.id)
          const outcome = yield* Effect.result(simulators.run(ORG, name, { links: { resource: payment.id } }))
          const after = yield* eventCount(payment.id)
          const stored = (yield* payments.get(ORG, payment.id)).status
          if (expected === undefined) {
            expect(outcome._tag, `${name} from ${status}`).toBe("Failure")
            expect(stored).toBe(status)
            expect(after).toBe(before)
          } else {
            expect(outcome._tag, `${name} from ${status}`).toBe("Success")
            expect(stored).toBe(expected)
            expect(after).toBeGreaterThan(before)
            status = expected
          }
        }
      }))
    }), { numRuns: 25 })
  })
})

describe("mandate_suspended_by_payer", () => {
  it("a payment that fails late, is retried and is confirmed again keeps its bank's new answer (a second reversal record is not a duplicate)", async () => {
    await runEngine(Effect.gen(function*() {
      const mandate = yield* activeMandate
      const payments = yield* Payments
      const simulators = yield* ScenarioSimulators
      // The sandbox bank answers a late failure for amounts ending in 92.
      const payment = yield* payments.create(ORG, yield* edge.payment({ amount: 1092, currency: "GBP", links: { mandate } }))
      yield* simulators.run(ORG, "payment_confirmed", { links: { resource: payment.id } })
      yield* (yield* Simulator).advanceBy(30 * MILLIS_PER_DAY)
      expect((yield* payments.get(ORG, payment.id)).status).toBe("failed")
      yield* payments.retry(ORG, payment.id, {})
      yield* simulators.run(ORG, "payment_confirmed", { links: { resource: payment.id } })
      expect((yield* payments.get(ORG, payment.id)).status).toBe("confirmed")
    }))
  })

  it("suspends an active PayTo mandate (suspended_by_payer), and only a PayTo one", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const simulators = yield* ScenarioSimulators
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { given_name: "Bruce", family_name: "Wayne" })
      const au = yield* customers.createBankAccount(ORG, {
        account_holder_name: "Bruce Wayne", country_code: "AU", branch_code: "082-902", account_number: "123456789", links: { customer: customer.id }
      })
      // PayTo collects under an Australian creditor's scheme identifier, and waits for the payer's approval.
      const auCreditor = yield* (yield* Creditors).create(ORG, { name: "Acme Gym AU", country_code: "AU", creditor_type: "company" })
      const mandates = yield* Mandates
      const payTo = yield* mandates.create(ORG, { scheme: "pay_to", links: { customer_bank_account: au.id, creditor: auCreditor.id } })
      const early = yield* Effect.flip(simulators.run(ORG, "mandate_suspended_by_payer", { links: { resource: payTo.id } }))
      yield* mandates.grantCustomerApproval(ORG, payTo.id)
      yield* simulators.run(ORG, "mandate_activated", { links: { resource: payTo.id } })
      yield* simulators.run(ORG, "mandate_suspended_by_payer", { links: { resource: payTo.id } })
      const events = yield* (yield* Events).list(ORG, { mandate: payTo.id, limit: 50 })
      return { early, status: (yield* mandates.get(ORG, payTo.id)).status, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(r.early._tag === "InvalidState" && r.early.reason).toBe("scenario_precondition_failed")
    expect(r.status).toBe("suspended_by_payer")
    expect(r.actions).toEqual(["created", "customer_approval_granted", "submitted", "active", "suspended_by_payer"])
  })
})

describe("payment scenarios on a mandate that goes with its first payment", () => {
  it("a SEPA payment on a pending mandate: the mandate is submitted and activated with it; a Bacs one is refused", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const simulators = yield* ScenarioSimulators
      const { mandate: bacs } = yield* setUpPayer(ORG)
      const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme DE", country_code: "DE", creditor_type: "company" })
      const customers = yield* Customers
      const erika = yield* customers.create(ORG, { given_name: "Erika", family_name: "Mustermann", country_code: "DE" })
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Erika Mustermann", iban: "DE89370400440532013000", links: { customer: erika.id } })
      const sepa = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
      const payments = yield* Payments
      const payment = yield* payments.create(ORG, yield* edge.payment({ amount: 1000, currency: "EUR", links: { mandate: sepa.id } }))
      yield* simulators.run(ORG, "payment_confirmed", { links: { resource: payment.id } })
      const onBacs = yield* payments.create(ORG, yield* edge.payment({ amount: 1000, currency: "GBP", links: { mandate: bacs.id } }))
      const refused = yield* Effect.flip(simulators.run(ORG, "payment_confirmed", { links: { resource: onBacs.id } }))
      const events = yield* (yield* Events).list(ORG, { mandate: sepa.id, resource_type: "mandates", limit: 50 })
      return {
        scheme: sepa.scheme,
        payment: (yield* payments.get(ORG, payment.id)).status,
        mandate: (yield* (yield* Mandates).get(ORG, sepa.id)).status,
        actions: events.items.map((e) => e.action).reverse(),
        refused: refused._tag === "InvalidState" ? refused.reason : refused._tag
      }
    }))
    expect(r).toEqual({ scheme: "sepa_core", payment: "confirmed", mandate: "active", actions: ["created", "submitted", "active"], refused: "mandate_not_active" })
  })
})

describe("the scenario names", () => {
  it("are GoCardless's, every one of them", () => {
    expect([...SCENARIO_NAMES].sort()).toEqual([
      "creditor_verification_status_action_required", "creditor_verification_status_in_review", "creditor_verification_status_successful",
      "payment_confirmed", "payment_paid_out", "payment_failed", "payment_charged_back", "payment_chargeback_settled", "payment_late_failure",
      "payment_late_failure_settled", "payment_submitted",
      "mandate_activated", "mandate_customer_approval_granted", "mandate_customer_approval_skipped", "mandate_failed", "mandate_expired",
      "mandate_transferred", "mandate_transferred_with_resubmission", "mandate_suspended_by_payer",
      "refund_paid", "refund_settled", "refund_bounced", "refund_returned",
      "payout_bounced", "payout_create",
      "billing_request_fulfilled", "billing_request_fulfilled_and_payment_failed", "billing_request_fulfilled_and_payment_confirmed_to_failed",
      "billing_request_fulfilled_and_payment_paid_out"
    ].sort())
  })
})
