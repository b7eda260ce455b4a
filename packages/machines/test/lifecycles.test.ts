import { InvalidState, timestampFromMillis } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  accessTokenMachine,
  type AnyMachine,
  bankAccountHolderVerificationMachine,
  creation,
  creditorBankAccountVerificationMachine,
  oauthAppMachine,
  schemeIdentifierMachine,
  transition,
  webhookDeliveryMachine,
  type WebhookDeliveryFacts
} from "../src/index.ts"

/**
 * The lifecycles the engine and server keep outside the API's main resources, written out by hand
 * (not read from the tables): for each status and event, the status it leads to (undefined: refused),
 * and the reason every refusal of the event gives.
 */
interface Model<F> {
  readonly machine: AnyMachine
  readonly created: ReadonlyArray<string>
  readonly refusal: Readonly<Record<string, string>>
  readonly next: (status: string, event: string, facts: F) => string | undefined
  readonly facts: fc.Arbitrary<F>
}

const NO_FACTS = fc.constant({})

const webhookDelivery: Model<WebhookDeliveryFacts> = {
  machine: webhookDeliveryMachine,
  created: ["pending"],
  refusal: { succeed: "webhook_delivery_not_pending", fail: "webhook_delivery_not_pending", give_up: "webhook_delivery_not_pending" },
  next: (status, event, facts) => {
    if (status !== "pending") return undefined
    if (event === "succeed") return "delivered"
    if (event === "give_up") return "given_up"
    return facts.endpoint_enabled && facts.retry_left ? "pending" : "given_up"
  },
  facts: fc.record({ endpoint_enabled: fc.boolean(), retry_left: fc.boolean() })
}

const MODELS: ReadonlyArray<Model<object>> = [
  webhookDelivery as Model<object>,
  {
    machine: creditorBankAccountVerificationMachine,
    created: ["pending", "in_review"],
    refusal: { submit_details: "bank_account_not_pending", approve: "bank_account_not_in_review", reject: "bank_account_not_in_review" },
    next: (status, event) =>
      ({ "pending submit_details": "in_review", "in_review approve": "successful", "in_review reject": "could_not_verify" } as Record<string, string>)[`${status} ${event}`],
    facts: NO_FACTS
  },
  {
    machine: schemeIdentifierMachine,
    created: ["pending", "active"],
    refusal: { register: "scheme_identifier_not_pending" },
    next: (status) => (status === "pending" ? "active" : undefined),
    facts: NO_FACTS
  },
  {
    machine: bankAccountHolderVerificationMachine,
    created: ["pending"],
    refusal: { complete: "verification_not_pending" },
    next: (status) => (status === "pending" ? "completed" : undefined),
    facts: NO_FACTS
  },
  {
    machine: accessTokenMachine,
    created: ["active"],
    refusal: { revoke: "access_token_revoked", deactivate: "access_token_not_active" },
    // A revoked token stays revoked; only an active one becomes inactive.
    next: (status, event) => (event === "revoke" ? (status === "revoked" ? undefined : "revoked") : status === "active" ? "inactive" : undefined),
    facts: NO_FACTS
  },
  {
    machine: oauthAppMachine,
    created: ["enabled"],
    refusal: { disable: "oauth_app_disabled" },
    next: (status) => (status === "enabled" ? "disabled" : undefined),
    facts: NO_FACTS
  }
]

const at = timestampFromMillis(Date.UTC(2026, 10, 27, 9))
const cause = { origin: "gocardless" as const, cause: "test" }

describe.each(MODELS.map((m) => [m.machine.name, m] as const))("%s lifecycle", (name, model) => {
  it("is created only in its initial statuses, with no API event", () => {
    for (const state of model.machine.states) {
      const result = creation(model.machine, state, { at, cause })
      expect(Result.isSuccess(result), state).toBe(model.created.includes(state))
      if (Result.isSuccess(result)) expect(result.success.emits).toBeNull()
    }
  })

  it("follows the model over any sequence of events and facts", () => {
    const step = fc.tuple(fc.constantFrom(...model.machine.events), model.facts)
    fc.assert(
      fc.property(fc.constantFrom(...model.created), fc.array(step, { maxLength: 20 }), (start, steps) => {
        let state = start
        for (const [event, facts] of steps) {
          const expected = model.next(state, event, facts)
          const result = transition(model.machine, state, event, { at, cause, context: facts as never })
          if (expected === undefined) {
            expect(Result.isFailure(result)).toBe(true)
            if (Result.isSuccess(result)) return
            expect(result.failure).toBeInstanceOf(InvalidState)
            expect(result.failure.reason).toBe(model.refusal[event])
          } else {
            expect(Result.isSuccess(result)).toBe(true)
            if (Result.isFailure(result)) return
            expect(result.success).toEqual({ resource_type: name, from: state, to: expected, event, emits: null, at, cause })
            state = expected
          }
        }
      })
    )
  })
})
