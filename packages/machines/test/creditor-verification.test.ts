import { InvalidState, timestampFromMillis } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  CREDITOR_VERIFICATION_EVENTS,
  CREDITOR_VERIFICATION_STATUSES,
  type CreditorVerificationEvent,
  type CreditorVerificationStatus,
  creation,
  creditorVerificationMachine,
  transition
} from "../src/index.ts"

/**
 * The lifecycle the spec describes, written out by hand (not read from the table): what each
 * event does in each status, the API event it emits, and the reason a refusal gives.
 */
const MODEL: Readonly<Record<CreditorVerificationEvent, {
  readonly from: CreditorVerificationStatus
  readonly to: CreditorVerificationStatus
  readonly emits: string | null
  readonly reason: string
}>> = {
  submit_details: { from: "action_required", to: "in_review", emits: null, reason: "creditor_not_action_required" },
  approve: { from: "in_review", to: "successful", emits: "updated", reason: "creditor_not_in_review" },
  require_action: { from: "in_review", to: "action_required", emits: "updated", reason: "creditor_not_in_review" },
  change_payout_account: { from: "successful", to: "in_review", emits: null, reason: "creditor_not_verified" }
}

const at = timestampFromMillis(Date.UTC(2026, 10, 24, 9))
const cause = { origin: "gocardless" as const, cause: "test" }

describe("creditor verification machine", () => {
  it("is created needing action, emitting created, and in no other status", () => {
    for (const state of CREDITOR_VERIFICATION_STATUSES) {
      const result = creation(creditorVerificationMachine, state, { at, cause })
      expect(Result.isSuccess(result)).toBe(state === "action_required")
      if (Result.isSuccess(result)) expect(result.success.emits).toBe("created")
    }
  })

  it("keeps its state in the creditor's verification_status", () => {
    expect(creditorVerificationMachine.field).toBe("verification_status")
  })

  it("follows the model over any sequence of events", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CREDITOR_VERIFICATION_EVENTS), { maxLength: 30 }), (events) => {
        let state: CreditorVerificationStatus = "action_required"
        for (const event of events) {
          const expected = MODEL[event]
          const result = transition(creditorVerificationMachine, state, event, { at, cause, context: {} })
          if (state === expected.from) {
            expect(Result.isSuccess(result)).toBe(true)
            if (Result.isFailure(result)) return
            expect(result.success).toEqual({ resource_type: "creditors", from: state, to: expected.to, event, emits: expected.emits, at, cause })
            state = expected.to
          } else {
            expect(Result.isFailure(result)).toBe(true)
            if (Result.isSuccess(result)) return
            expect(result.failure).toBeInstanceOf(InvalidState)
            expect(result.failure.reason).toBe(expected.reason)
          }
        }
      })
    )
  })

  it("only a review makes a creditor verified, and only from in_review", () => {
    const sequence: ReadonlyArray<CreditorVerificationEvent> = ["submit_details", "approve", "change_payout_account", "approve"]
    const states = sequence.reduce<Array<CreditorVerificationStatus>>((seen, event) => {
      const from = seen[seen.length - 1] ?? "action_required"
      const result = transition(creditorVerificationMachine, from, event, { at, cause, context: {} })
      return Result.isSuccess(result) ? [...seen, result.success.to] : seen
    }, [])
    expect(states).toEqual(["in_review", "successful", "in_review", "successful"])
  })
})
