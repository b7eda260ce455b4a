import { timestampFromMillis } from "@paykit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SUBSCRIPTION_PAUSE_REASONS, SUBSCRIPTION_STATUSES, subscriptions, type SubscriptionPauseFacts } from "../src/index.ts"
import { BASE_MS, causeArb, pauseFactsArb, timestampArb } from "@paykit/machines/testing"

/**
 * The real API's pause rule, stated on its own: the reason a pause is refused in each state, or
 * undefined where it is accepted. Checked in this order: the status, an end_date, a pause until
 * resumed, other cycles for a pause for cycles, no payment left, too few cycles.
 */
const expectedRefusal = (status: string, f: SubscriptionPauseFacts): string | undefined => {
  if (status !== "active" && status !== "paused") return SUBSCRIPTION_PAUSE_REASONS.notActive
  if (f.has_end_date || f.pause_kind === "paused_indefinitely") return SUBSCRIPTION_PAUSE_REASONS.cannotBePaused
  if (f.pause_kind === "paused_for_cycles") return f.pause_cycles === null ? undefined : SUBSCRIPTION_PAUSE_REASONS.cannotUpdateCycles
  if (!f.has_occurrence_to_pause) return SUBSCRIPTION_PAUSE_REASONS.cannotBePaused
  if (f.pause_cycles !== null && f.pause_cycles < f.minimum_pause_cycles) return SUBSCRIPTION_PAUSE_REASONS.cyclesTooFew
  return undefined
}

describe("the subscription machine's pause guards", () => {
  it("accept a pause exactly when the real API's rule does, and refuse it with its reason", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SUBSCRIPTION_STATUSES), pauseFactsArb, fc.boolean(), timestampArb, causeArb, (status, facts, more, at, cause) => {
        const outcome = subscriptions.transition(status, "pause", { at, cause, context: { has_further_payments: more, pause: facts } })
        const expected = expectedRefusal(status, facts)
        if (expected === undefined) {
          expect(Result.isSuccess(outcome) && outcome.success.to).toBe("paused")
          // Only the move from active is news: a pause for cycles made indefinite sends nothing.
          expect(Result.isSuccess(outcome) && outcome.success.emits).toBe(status === "active" ? "paused" : null)
        } else {
          expect(Result.isFailure(outcome) && outcome.failure.reason).toBe(expected)
        }
      })
    )
  })

  it("refuse a pause whose facts were not given", () => {
    const outcome = subscriptions.transition("active", "pause", {
      at: timestampFromMillis(BASE_MS),
      cause: { origin: "api", cause: "subscription_paused" },
      context: { has_further_payments: true, pause: null }
    })
    expect(Result.isFailure(outcome)).toBe(true)
  })
})
