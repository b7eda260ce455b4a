import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BillingRequests, decodeCommand, RedirectFlows, REQUEST_BODIES } from "@paykit/engine"
import { ADA, ORG, runBilling, setUpCreditor, UK_ACCOUNT } from "./billing-fixtures.ts"

/**
 * Model-based: whatever the order in which the payer's details, bank account and confirmation
 * reach a redirect flow's billing request, and however often the integrator tries to complete it,
 * completion (1) is refused with the other session's token, (2) succeeds exactly once, the first
 * time it is tried after all three are in, and (3) is `redirect_flow_incomplete` before that and
 * `redirect_flow_already_completed` after. The expected outcomes come from the model below, not
 * from the billing request's actions.
 */

const STEPS = ["details", "account", "confirm", "complete", "complete_other_session"] as const
type Step = (typeof STEPS)[number]

interface Model {
  readonly details: boolean
  readonly account: boolean
  readonly confirmed: boolean
  readonly completed: boolean
}

/** The outcome the model expects of a completion attempt, and the model after it. */
const expectedCompletion = (m: Model): readonly [string, Model] =>
  m.completed ? ["redirect_flow_already_completed", m] : m.confirmed ? ["completed", { ...m, completed: true }] : ["redirect_flow_incomplete", m]

const nextModel = (m: Model, step: Exclude<Step, "complete" | "complete_other_session">): Model =>
  step === "details" ? { ...m, details: true } : step === "account" ? { ...m, account: true } : { ...m, confirmed: m.confirmed || (m.details && m.account) }

const reasonOf = (exit: { readonly _tag: string; readonly reason?: string }): string => exit.reason ?? exit._tag

const TOKEN = "SESS_model"

const play = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function*() {
    yield* setUpCreditor
    const flows = yield* RedirectFlows
    const requests = yield* BillingRequests
    const create = yield* decodeCommand(REQUEST_BODIES.redirect_flows.create, "redirect_flows")({
      session_token: TOKEN, success_redirect_url: "https://acme.example/done", scheme: "bacs"
    })
    const account = yield* decodeCommand(REQUEST_BODIES.billing_requests.collect_bank_account, "billing_requests")(UK_ACCOUNT)
    const details = yield* decodeCommand(REQUEST_BODIES.billing_requests.collect_customer_details, "billing_requests")(ADA)
    const flow = yield* flows.create(ORG, create)
    const br = flow.links.billing_request
    let model: Model = { details: false, account: false, confirmed: false, completed: false }
    for (const step of steps) {
      if (step === "complete" || step === "complete_other_session") {
        const token = step === "complete" ? TOKEN : "SESS_other"
        const outcome = yield* Effect.match(flows.complete(ORG, flow.id, { session_token: token }), {
          onFailure: (e) => reasonOf(e as { _tag: string; reason?: string }),
          onSuccess: (completed) => completed.links.mandate === undefined ? "no mandate" : "completed"
        })
        if (step === "complete_other_session") {
          expect(outcome).toBe("bad_request")
          continue
        }
        const [expected, next] = expectedCompletion(model)
        expect(outcome).toBe(expected)
        model = next
        continue
      }
      // The payer's steps may be refused (out of turn, or after the request is fulfilled): the model says what they leave.
      const action = step === "details"
        ? requests.collectCustomerDetails(ORG, br, details)
        : step === "account"
        ? requests.collectBankAccount(ORG, br, account)
        : requests.confirmPayerDetails(ORG, br, {})
      yield* Effect.ignore(action)
      if (!model.completed) model = nextModel(model, step)
    }
  })

describe("redirect flow completion (model-based)", () => {
  it("succeeds once, the first time after details, account and confirmation are in; other sessions never", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 10 }), async (steps) => {
        await runBilling(play(steps))
      }),
      { numRuns: 40 }
    )
  })
})
