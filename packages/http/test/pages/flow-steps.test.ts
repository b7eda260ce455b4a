import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { BillingRequest } from "@paykit/engine"
import { FLOW_STEPS, flowStateOf } from "../../src/pages/flow-steps.ts"

/** The step rule of the flow pages: which form a payer meets next, from the billing request's actions. */

type Action = BillingRequest["actions"][number]

const action = fc.record({
  type: fc.constantFrom(...FLOW_STEPS),
  required: fc.boolean(),
  status: fc.constantFrom("pending" as const, "completed" as const),
  requires_actions: fc.subarray([...FLOW_STEPS])
}).map((a): Action => ({ ...a, completes_actions: [] }))

/** Actions of distinct types, as a billing request has them. */
const actions = fc.uniqueArray(action, { selector: (a) => a.type, maxLength: FLOW_STEPS.length })

const completed = (list: ReadonlyArray<Action>, type: string) => list.some((a) => a.type === type && a.status === "completed")
const eligible = (list: ReadonlyArray<Action>, a: Action) => a.required && a.status === "pending" && a.requires_actions.every((r) => completed(list, r))

describe("the flow pages' next step", () => {
  it("is the first pending required action (in the payer's order) whose requirements are done; none such and the flow is blocked (property)", () => {
    fc.assert(fc.property(actions, fc.boolean(), (list, lockCurrency) => {
      const state = flowStateOf({ status: "pending", actions: list }, { lock_currency: lockCurrency })
      const candidates = FLOW_STEPS.filter((step) => {
        const a = list.find((x) => x.type === step)
        return a !== undefined && eligible(list, a) && !(lockCurrency && step === "choose_currency")
      })
      expect(state).toEqual(candidates[0] === undefined ? { kind: "blocked" } : { kind: "step", step: candidates[0] })
    }))
  })

  it("never asks for the currency when the flow locks it (property)", () => {
    fc.assert(fc.property(actions, (list) => {
      expect(flowStateOf({ status: "pending", actions: list }, { lock_currency: true })).not.toEqual({ kind: "step", step: "choose_currency" })
    }))
  })

  it("a request ready to fulfil, fulfilled, or closed shows no step whatever its actions (property)", () => {
    fc.assert(fc.property(actions, fc.boolean(), (list, lockCurrency) => {
      expect(flowStateOf({ status: "ready_to_fulfil", actions: list }, { lock_currency: lockCurrency })).toEqual({ kind: "ready" })
      // Fulfilling: the payer's part is done, the merchant's side is under way.
      for (const status of ["fulfilling", "fulfilled"] as const) {
        expect(flowStateOf({ status, actions: list }, { lock_currency: lockCurrency })).toEqual({ kind: "fulfilled" })
      }
      expect(flowStateOf({ status: "cancelled", actions: list }, { lock_currency: lockCurrency })).toEqual({ kind: "closed" })
    }))
  })
})
