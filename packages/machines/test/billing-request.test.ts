import { type Timestamp, timestampFromMillis } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  applyBillingRequestEvent,
  type BillingRequestEvent,
  type BillingRequestFacts,
  type BillingRequestSnapshot,
  buildActions,
  BILLING_REQUEST_ACTION_TYPES,
  type BillingRequestAction,
  completeAction,
  pendingRequirements,
  reopenActions
} from "../src/index.ts"
import { BASE_MS, factsArb } from "@paykit/machines/testing"

const at: Timestamp = timestampFromMillis(BASE_MS)
const payer = { origin: "payer" as const, cause: "billing_request_flow" }

const noCustomer = { customer: {}, customer_billing_detail: {}, bank_account_present: false, institution_selected: false }

const run = (br: BillingRequestSnapshot, events: ReadonlyArray<BillingRequestEvent>) => {
  let current = br
  const emitted: Array<string | null> = []
  for (const event of events) {
    const result = applyBillingRequestEvent(current, event, { at, cause: payer })
    if (Result.isFailure(result)) return { current, emitted, refused: result.failure.reason }
    current = { ...current, status: result.success.status, actions: result.success.actions }
    emitted.push(result.success.history.emits)
  }
  return { current, emitted, refused: undefined }
}

const snapshot = (facts: BillingRequestFacts, fallback_enabled = false): BillingRequestSnapshot => ({
  status: "pending",
  actions: buildActions(facts),
  has_payment_request: facts.payment_request !== null,
  fallback_enabled
})

describe("buildActions", () => {
  it("lists a Bacs mandate request's actions as the real API does", () => {
    const actions = buildActions({
      mandate_request: { scheme: "bacs", currency: "GBP" },
      payment_request: null,
      ...noCustomer
    })
    expect(actions).toEqual([
      { type: "choose_currency", required: true, completes_actions: [], requires_actions: [], status: "completed" },
      {
        type: "collect_customer_details", required: true, completes_actions: [], requires_actions: ["choose_currency"],
        status: "pending",
        collect_customer_details: {
          incomplete_fields: {
            customer: ["email", "given_name", "family_name"],
            customer_billing_detail: ["address_line1", "city", "postal_code", "country_code"]
          }
        }
      },
      { type: "collect_bank_account", required: true, completes_actions: ["choose_currency"], requires_actions: [], status: "pending" },
      {
        type: "confirm_payer_details", required: true, completes_actions: [],
        requires_actions: ["collect_customer_details", "collect_bank_account"], status: "pending"
      }
    ])
  })

  it("requires institution and bank authorisation for an instant payment", () => {
    const actions = buildActions({
      mandate_request: null,
      payment_request: { scheme: "faster_payments", currency: "GBP" },
      customer: { email: "a@b.test", company_name: "Acme" },
      customer_billing_detail: {},
      bank_account_present: false,
      institution_selected: false
    })
    expect(actions.map((a) => [a.type, a.required, a.status])).toEqual([
      ["collect_customer_details", true, "completed"],
      ["collect_bank_account", false, "pending"],
      ["select_institution", true, "pending"],
      ["bank_authorisation", true, "pending"]
    ])
    expect(actions.find((a) => a.type === "bank_authorisation")?.bank_authorisation).toEqual({ authorisation_type: "payment" })
  })

  it("asks Autogiro payers for a Swedish identity number and PayTo payers for no address", () => {
    const autogiro = buildActions({ mandate_request: { scheme: "autogiro", currency: "SEK" }, payment_request: null, ...noCustomer })
    expect(autogiro[1]?.collect_customer_details?.incomplete_fields.customer_billing_detail).toContain("swedish_identity_number")
    const payTo = buildActions({ mandate_request: { scheme: "pay_to", currency: "AUD" }, payment_request: null, ...noCustomer })
    expect(payTo[1]?.collect_customer_details?.incomplete_fields.customer_billing_detail).toEqual([])
    expect(payTo.find((a) => a.type === "confirm_payer_details")?.required).toBe(false)
    expect(payTo.find((a) => a.type === "bank_authorisation")?.bank_authorisation).toEqual({ authorisation_type: "mandate" })
  })

  it("every required action can be completed: the requires graph has no cycle and names only listed actions", () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        let actions = buildActions(facts)
        const types = new Set(actions.map((a) => a.type))
        for (const a of actions) for (const r of [...a.requires_actions, ...a.completes_actions]) expect(types.has(r)).toBe(true)
        // Complete whatever is completable until nothing changes; every action must end completed.
        for (let progress = true; progress;) {
          progress = false
          for (const a of actions) {
            const next = completeAction(actions, a.type)
            if (Result.isSuccess(next)) {
              actions = next.success
              progress = true
            }
          }
        }
        expect(actions.filter((a) => a.status !== "completed")).toEqual([])
      })
    )
  })

  it("an action never completes while an action it requires is pending", () => {
    fc.assert(
      fc.property(factsArb, fc.nat({ max: 5 }), (facts, i) => {
        const actions = buildActions(facts)
        const action = actions[i % actions.length]
        fc.pre(action !== undefined && action.status === "pending")
        if (action === undefined) return
        const result = completeAction(actions, action.type)
        if (pendingRequirements(actions, action.type).length > 0) {
          expect(Result.isFailure(result) && result.failure.reason).toBe("billing_request_action_requires_actions")
        } else {
          expect(Result.isSuccess(result)).toBe(true)
        }
      })
    )
  })
})

describe("billing request flows", () => {
  it("Bacs mandate: details, bank account, confirmation, fulfil", () => {
    const r = run(snapshot({ mandate_request: { scheme: "bacs", currency: "GBP" }, payment_request: null, ...noCustomer }), [
      "confirm_payer_details"
    ])
    expect(r.refused).toBe("billing_request_action_requires_actions")
    const ok = run(r.current, ["collect_customer_details", "collect_bank_account", "confirm_payer_details", "fulfil", "fulfilment_completed"])
    expect(ok.refused).toBeUndefined()
    expect(ok.emitted).toEqual(["collect_customer_details", "collect_bank_account", "payer_details_confirmed", null, "fulfilled"])
    expect(ok.current.status).toBe("fulfilled")
  })

  it("refuses fulfil while a required action is pending", () => {
    const r = run(snapshot({ mandate_request: { scheme: "bacs", currency: "GBP" }, payment_request: null, ...noCustomer }), ["fulfil"])
    expect(r.refused).toBe("billing_request_not_ready")
  })

  it("instant payment: institution, bank authorisation completes the bank account; choose_currency is refused", () => {
    const br = snapshot({
      mandate_request: null,
      payment_request: { scheme: "faster_payments", currency: "GBP" },
      ...noCustomer
    })
    expect(run(br, ["choose_currency"]).refused).toBe("choose_currency_not_supported")
    expect(run(br, ["bank_authorisation_authorised"]).refused).toBe("billing_request_action_requires_actions")
    const ok = run(br, ["collect_customer_details", "select_institution", "bank_authorisation_visited", "bank_authorisation_authorised"])
    expect(ok.refused).toBeUndefined()
    expect(ok.current.status).toBe("ready_to_fulfil")
    expect(ok.current.actions.find((a) => a.type === "collect_bank_account")?.status).toBe("completed")
  })

  it("falls back to direct debit only when enabled", () => {
    const facts: BillingRequestFacts = {
      mandate_request: { scheme: "bacs", currency: "GBP" },
      payment_request: { scheme: "faster_payments", currency: "GBP" },
      ...noCustomer
    }
    expect(run(snapshot(facts, false), ["fallback"]).refused).toBe("fallback_not_enabled")
    const fell = run(snapshot(facts, true), ["fallback", "fallback"])
    expect(fell.refused).toBe("fallback_not_available")
    expect(fell.emitted).toEqual(["fallback_triggered"])
    expect(fell.current.actions.find((a) => a.type === "bank_authorisation")?.required).toBe(false)
    const done = run(fell.current, ["collect_customer_details", "collect_bank_account", "confirm_payer_details"])
    expect(done.current.status).toBe("ready_to_fulfil")
  })

  it("cannot be cancelled once fulfilled", () => {
    const br = { ...snapshot({ mandate_request: null, payment_request: null, ...noCustomer }), status: "fulfilled" as const }
    expect(run(br, ["cancel"]).refused).toBe("cancellation_failed")
  })
})

describe("reopenActions", () => {
  const actionArb = fc.record({
    type: fc.constantFrom(...BILLING_REQUEST_ACTION_TYPES),
    required: fc.boolean(),
    completes_actions: fc.constant([]),
    requires_actions: fc.constant([]),
    status: fc.constantFrom("pending" as const, "completed" as const)
  })

  it("makes exactly the actions of the listed types pending, and leaves every other action as it was", () => {
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 8 }), fc.subarray([...BILLING_REQUEST_ACTION_TYPES]), (actions: Array<BillingRequestAction>, types) => {
        const after = reopenActions(actions, types)
        expect(after.length).toBe(actions.length)
        after.forEach((a, i) => {
          const before = actions[i] as BillingRequestAction
          expect(a).toEqual(types.includes(before.type) ? { ...before, status: "pending" } : before)
        })
      })
    )
  })
})
