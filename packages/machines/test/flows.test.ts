import { type LocalDate, type Timestamp, timestampFromMillis, unsafeLocalDate } from "@paykit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  bankAuthorisations,
  type Cause,
  defineMachine,
  mandates,
  MachineDefinitionError,
  outboundPaymentImports,
  outboundPayments,
  payouts,
  subscriptions
} from "../src/index.ts"
import { BASE_MS } from "@paykit/machines/testing"

const at = (minutes: number): Timestamp => timestampFromMillis(BASE_MS + minutes * 60_000)
const api: Cause = { origin: "api", cause: "api_request" }
const reasonOf = <A>(r: Result.Result<A, { readonly reason: string }>): string | undefined =>
  Result.isFailure(r) ? r.failure.reason : undefined

describe("outbound payment", () => {
  const today = unsafeLocalDate("2026-11-23")
  const context = { execution_date: unsafeLocalDate("2026-11-23") as LocalDate | null, today }

  it("runs create -> verify -> approve -> execute -> executed, emitting the documented actions", () => {
    const run = outboundPayments.replay("verifying", [
      { event: "verification_completed", input: { at: at(0), cause: api, context } },
      { event: "approve", input: { at: at(1), cause: api, context } },
      { event: "execution_date_reached", input: { at: at(2), cause: api, context } },
      { event: "scheme_accepted", input: { at: at(3), cause: { origin: "bank", cause: "scheme_accepted" }, context } }
    ])
    expect(run.refused).toBeUndefined()
    expect(run.state).toBe("executed")
    expect(run.history.map((h) => [h.from, h.to, h.emits])).toEqual([
      ["verifying", "pending_approval", "set_to_pending_approval"],
      ["pending_approval", "scheduled", "approved"],
      ["scheduled", "executing", "set_to_executing"],
      ["executing", "executed", "executed"]
    ])
    expect(Result.getOrThrow(outboundPayments.creation("verifying", { at: at(0), cause: api })).emits).toBe("created")
  })

  it("refuses a second approval and an execution before its date", () => {
    expect(reasonOf(outboundPayments.transition("scheduled", "approve", { at: at(0), cause: api, context })))
      .toBe("outbound_payment_not_approvable")
    const early = { execution_date: unsafeLocalDate("2026-11-24"), today }
    expect(reasonOf(outboundPayments.transition("scheduled", "execution_date_reached", { at: at(0), cause: api, context: early })))
      .toBe("execution_date_not_reached")
    expect(reasonOf(outboundPayments.transition("executed", "cancel", { at: at(0), cause: api, context })))
      .toBe("cancellation_failed")
    expect(outboundPayments.allowedEvents("pending_approval")).toEqual(["approve", "approval_expired", "cancel"])
  })
})

describe("outbound payment import", () => {
  const context = { entry_counts: { valid: 3, processed: 2, failed_to_process: 1 } }
  it("processes once every valid entry is converted; cannot be cancelled once processing", () => {
    const run = outboundPaymentImports.replay("validating", [
      { event: "validation_succeeded", input: { at: at(0), cause: api, context } },
      { event: "authorise", input: { at: at(1), cause: { origin: "customer", cause: "import_authorised" }, context } },
      { event: "processing_finished", input: { at: at(2), cause: api, context } }
    ])
    expect(run.state).toBe("processed")
    const busy = { entry_counts: { valid: 3, processed: 1, failed_to_process: 0 } }
    expect(reasonOf(outboundPaymentImports.transition("processing", "processing_finished", { at: at(0), cause: api, context: busy })))
      .toBe("outbound_payment_import_entries_pending")
    expect(reasonOf(outboundPaymentImports.transition("processing", "cancel", { at: at(0), cause: api, context })))
      .toBe("cancellation_failed")
    expect(Result.getOrThrow(outboundPaymentImports.transition("valid", "expire", { at: at(0), cause: api, context })).emits)
      .toBe("expired")
  })
})

describe("payout", () => {
  it("pays an exchanged payout only after fx_rate_confirmed; a bounced payout can be retried", () => {
    const unconfirmed = { exchanged: true, fx_rate_confirmed: false }
    expect(reasonOf(payouts.transition("pending", "pay", { at: at(0), cause: api, context: unconfirmed }))).toBe("fx_rate_not_confirmed")
    const confirm = payouts.transition("pending", "confirm_fx_rate", { at: at(0), cause: api, context: unconfirmed })
    expect(Result.getOrThrow(confirm).emits).toBe("fx_rate_confirmed")
    const confirmed = { exchanged: true, fx_rate_confirmed: true }
    expect(reasonOf(payouts.transition("pending", "confirm_fx_rate", { at: at(0), cause: api, context: confirmed })))
      .toBe("fx_rate_already_confirmed")
    expect(Result.getOrThrow(payouts.transition("pending", "pay", { at: at(1), cause: api, context: confirmed })).to).toBe("paid")
    const plain = { exchanged: false, fx_rate_confirmed: false }
    expect(payouts.replay("pending", [
      { event: "bounce", input: { at: at(0), cause: { origin: "bank", cause: "payout_bounced" }, context: plain } },
      { event: "retry", input: { at: at(1), cause: api, context: plain } },
      { event: "pay", input: { at: at(2), cause: api, context: plain } }
    ]).history.map((h) => h.emits)).toEqual(["bounced", "retried", "paid"])
  })

  it("bounces a paid payout the creditor's bank returns (payout_bounced), and nothing else after paid", () => {
    const plain = { exchanged: false, fx_rate_confirmed: false }
    expect(Result.getOrThrow(payouts.transition("paid", "bounce", { at: at(0), cause: { origin: "bank", cause: "payout_bounced" }, context: plain })).emits)
      .toBe("bounced")
    expect(reasonOf(payouts.transition("paid", "pay", { at: at(0), cause: api, context: plain }))).toBe("payout_not_pending")
    expect(reasonOf(payouts.transition("paid", "retry", { at: at(0), cause: api, context: plain }))).toBe("payout_not_bounced")
  })
})

describe("mandate: scenario moves", () => {
  const context = { reinstating: false }
  it("skips the payer's approval (customer_approval_skipped) only while it is awaited", () => {
    const skipped = mandates.transition("pending_customer_approval", "skip_customer_approval", { at: at(0), cause: api, context })
    expect(Result.getOrThrow(skipped).to).toBe("pending_submission")
    expect(Result.getOrThrow(skipped).emits).toBe("customer_approval_skipped")
    expect(reasonOf(mandates.transition("pending_submission", "skip_customer_approval", { at: at(0), cause: api, context })))
      .toBe("mandate_not_pending_customer_approval")
  })

  it("asks an active mandate moved by account switching to be submitted again, then activates it again", () => {
    const run = mandates.replay("active", [
      { event: "transfer", input: { at: at(0), cause: { origin: "bank", cause: "bank_account_transferred" }, context } },
      { event: "request_resubmission", input: { at: at(1), cause: { origin: "bank", cause: "bank_account_transferred" }, context } },
      { event: "submit", input: { at: at(2), cause: api, context } },
      { event: "activate", input: { at: at(3), cause: api, context } }
    ])
    expect(run.refused).toBeUndefined()
    expect(run.history.map((h) => h.emits)).toEqual(["transferred", "resubmission_requested", "submitted", "active"])
    expect(reasonOf(mandates.transition("submitted", "request_resubmission", { at: at(0), cause: api, context }))).toBe("mandate_not_active")
  })
})

describe("bank authorisation", () => {
  const context = { created_at: at(0) }
  it("expires 15 minutes after creation (BANK_AUTHORISATION_URL_LIFE_MS)", () => {
    expect(Result.getOrThrow(bankAuthorisations.transition("visited", "authorise", { at: at(14.99), cause: api, context })).emits)
      .toBe("BANK_AUTHORISATION_AUTHORISED")
    expect(reasonOf(bankAuthorisations.transition("visited", "authorise", { at: at(15), cause: api, context })))
      .toBe("bank_authorisation_expired")
    expect(reasonOf(bankAuthorisations.transition("created", "expire", { at: at(14.99), cause: api, context })))
      .toBe("bank_authorisation_not_expired")
    expect(Result.getOrThrow(bankAuthorisations.transition("created", "expire", { at: at(15), cause: api, context })).to)
      .toBe("expired")
    expect(reasonOf(bankAuthorisations.transition("denied", "authorise", { at: at(1), cause: api, context })))
      .toBe("bank_authorisation_not_pending")
  })
})

describe("mandate", () => {
  it("reinstates a cancelled mandate: resubmission_requested, submitted, reinstated", () => {
    const reinstating = { reinstating: true }
    const run = mandates.replay("cancelled", [
      { event: "reinstate", input: { at: at(0), cause: api, context: reinstating } },
      { event: "submit", input: { at: at(1), cause: api, context: reinstating } },
      { event: "activate", input: { at: at(2), cause: { origin: "bank", cause: "mandate_activated" }, context: reinstating } }
    ])
    expect(run.history.map((h) => h.emits)).toEqual(["resubmission_requested", "submitted", "reinstated"])
    expect(Result.getOrThrow(mandates.transition("submitted", "activate", { at: at(0), cause: api, context: { reinstating: false } })).emits)
      .toBe("active")
    expect(reasonOf(mandates.transition("cancelled", "expire", { at: at(0), cause: api, context: reinstating }))).toBe("mandate_not_active")
  })
})

describe("subscription", () => {
  it("pauses, resumes, and finishes only when no payment is left to create", () => {
    const more = { has_further_payments: true, pause: null }
    const pausable = {
      has_further_payments: true,
      pause: { has_end_date: false, pause_kind: "active", pause_cycles: null, has_occurrence_to_pause: true, minimum_pause_cycles: 1 }
    } as const
    const run = subscriptions.replay("active", [
      { event: "create_payment", input: { at: at(0), cause: api, context: more } },
      { event: "pause", input: { at: at(1), cause: api, context: pausable } },
      { event: "resume", input: { at: at(2), cause: api, context: more } }
    ])
    expect(run.history.map((h) => h.emits)).toEqual(["payment_created", "paused", "resumed"])
    expect(reasonOf(subscriptions.transition("active", "finish", { at: at(0), cause: api, context: more })))
      .toBe("subscription_schedule_not_finished")
    expect(reasonOf(subscriptions.transition("cancelled", "cancel", { at: at(0), cause: api, context: more }))).toBe("cancellation_failed")
    expect(reasonOf(subscriptions.creation("paused", { at: at(0), cause: api }))).toBe("invalid_state")
  })
})

describe("defineMachine", () => {
  it("rejects a table that contradicts itself", () => {
    const make = (terminal: ReadonlyArray<"a" | "b">, to: "a" | "b") => () =>
      defineMachine<Record<never, never>>()({
        name: "things", noun: "thing", states: ["a", "b"], events: ["go"], initial: ["a"], terminal, created: null,
        transitions: [{ from: ["a"], event: "go", to, emits: null, reason: "no" }]
      })
    expect(make(["b"], "b")).not.toThrow()
    expect(make(["a"], "b")).toThrow(MachineDefinitionError)
    expect(() =>
      defineMachine<Record<never, never>>()({
        name: "things", noun: "thing", states: ["a", "b"], events: ["go", "stop"], initial: ["a"], terminal: [],
        created: null,
        transitions: [
          { from: ["a"], event: "go", to: "b", emits: null, reason: "no" },
          { from: ["a"], event: "go", to: "a", emits: null, reason: "no" }
        ]
      })
    ).toThrow(/unreachable.*stop has no rule|stop has no rule|unreachable/)
  })
})
