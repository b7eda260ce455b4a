import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Events } from "@paykit/engine"
import type { BillingRequest } from "@paykit/engine"
import { ADA, bankAuthorisationsAtEdge, billingRequestsAtEdge, ORG, runBilling, setUpCreditor, UK_ACCOUNT } from "./billing-fixtures.ts"

/**
 * Model-based properties over random sequences of billing request actions: whatever the payer
 * and the integrator do, in whatever order, (1) fulfil is accepted exactly when every required
 * action is completed, and (2) every status change is announced by a billing request event.
 */

const STEPS = [
  "collect_customer_details", "collect_bank_account", "confirm_payer_details", "select_institution", "bank_authorisation", "authorise",
  "fallback", "fulfil", "cancel", "choose_currency"
] as const
type Step = (typeof STEPS)[number]

const SHAPES = [
  { mandate_request: { currency: "GBP", scheme: "bacs" } },
  { mandate_request: { currency: "GBP" } },
  { mandate_request: { currency: "GBP", scheme: "bacs" }, payment_request: { amount: 1500, currency: "GBP" }, fallback_enabled: true },
  { mandate_request: { currency: "GBP", scheme: "bacs" }, payment_request: { amount: 1500, currency: "GBP" } }
] as const

const allRequiredDone = (br: BillingRequest) => br.actions.every((a) => !a.required || a.status === "completed")

interface Observation {
  readonly step: Step
  readonly before: BillingRequest
  readonly after: BillingRequest
  readonly accepted: boolean
  readonly newEvents: ReadonlyArray<string>
}

const play = (shape: (typeof SHAPES)[number], steps: ReadonlyArray<Step>) =>
  Effect.gen(function*() {
    yield* setUpCreditor
    const brs = yield* billingRequestsAtEdge
    const bas = yield* bankAuthorisationsAtEdge
    const events = yield* Events
    const created = yield* brs.create(ORG, shape)
    const eventCount = Effect.map(events.list(ORG, { billing_request: created.id, resource_type: "billing_requests", limit: 500 }), (p) => p.items.map((e) => e.action))
    const observations: Array<Observation> = []
    for (const step of steps) {
      const before = yield* brs.get(ORG, created.id)
      const seen = yield* eventCount
      const id = created.id
      const attempt: Effect.Effect<unknown, unknown> =
        step === "collect_customer_details" ? brs.collectCustomerDetails(ORG, id, ADA)
        : step === "collect_bank_account" ? brs.collectBankAccount(ORG, id, UK_ACCOUNT)
        : step === "confirm_payer_details" ? brs.confirmPayerDetails(ORG, id, {})
        : step === "select_institution" ? brs.selectInstitution(ORG, id, { institution: "BARCLAYS_BUKBGB22", country_code: "GB" })
        : step === "bank_authorisation" ? bas.create(ORG, { links: { billing_request: id } })
        : step === "authorise" ? bas.authorise(ORG, before.links.bank_authorisation ?? "none", { bank_account: UK_ACCOUNT })
        : step === "fallback" ? brs.fallback(ORG, id)
        : step === "fulfil" ? brs.fulfil(ORG, id, {})
        : step === "cancel" ? brs.cancel(ORG, id, {})
        : brs.chooseCurrency(ORG, id, { currency: "GBP" })
      const accepted = yield* Effect.match(attempt, { onFailure: () => false, onSuccess: () => true })
      const after = yield* brs.get(ORG, created.id)
      const now = yield* eventCount
      observations.push({ step, before, after, accepted, newEvents: now.slice(0, now.length - seen.length) })
    }
    return observations
  })

describe("billing request properties", () => {
  it("fulfil is accepted iff every required action is completed; every status change has its event", async () => {
    let fulfilled = 0
    let refusedFulfils = 0
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...SHAPES),
      fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 12 }),
      fc.integer({ min: 1, max: 1000 }),
      async (shape, steps, seed) => {
        const observations = await runBilling(play(shape, steps), seed)
        for (const o of observations) {
          if (o.step === "fulfil") {
            const ready = (o.before.status === "pending" || o.before.status === "ready_to_fulfil") && allRequiredDone(o.before)
            expect(o.accepted).toBe(ready)
            if (o.accepted) expect(o.after.status).toBe("fulfilled")
            if (o.accepted) fulfilled++
            else refusedFulfils++
          }
          if (o.before.status !== o.after.status) expect(o.newEvents.length).toBeGreaterThan(0)
          // A refused step leaves the request exactly as it was.
          if (!o.accepted) expect(o.after).toEqual(o.before)
          // ready_to_fulfil means exactly that every required action is completed.
          if (o.after.status === "ready_to_fulfil") expect(allRequiredDone(o.after)).toBe(true)
          if (o.after.status === "pending") expect(allRequiredDone(o.after)).toBe(false)
        }
      }
    ), {
      numRuns: 60,
      // Sequences that walk a request to fulfilment, so both sides of the "iff" are exercised.
      examples: [
        [SHAPES[0], ["collect_customer_details", "collect_bank_account", "confirm_payer_details", "fulfil"], 1],
        [SHAPES[3], ["collect_customer_details", "select_institution", "bank_authorisation", "authorise", "confirm_payer_details", "fulfil"], 2]
      ]
    })
    expect(fulfilled).toBeGreaterThan(0)
    expect(refusedFulfils).toBeGreaterThan(0)
  })
})
