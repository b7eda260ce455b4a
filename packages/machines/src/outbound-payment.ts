import type { LocalDate } from "@paykit/core"
import { Schema } from "effect"
import { bindMachine, defineMachine, guard } from "./machine.ts"

/** Outbound payment statuses, as the real API (`OutboundPaymentStatus`). */
export const OUTBOUND_PAYMENT_STATUSES = [
  "verifying", "pending_approval", "scheduled", "executing", "executed", "cancelled", "failed"
] as const
export const OutboundPaymentStatus = Schema.Literals(OUTBOUND_PAYMENT_STATUSES).annotate({ identifier: "OutboundPaymentStatus" })
export type OutboundPaymentStatus = typeof OutboundPaymentStatus.Type

export const OUTBOUND_PAYMENT_EVENTS = [
  "verification_completed", "approve", "approval_expired", "cancel", "execution_date_reached", "scheme_accepted",
  "scheme_failed"
] as const
export type OutboundPaymentEvent = (typeof OUTBOUND_PAYMENT_EVENTS)[number]

/** The facts the outbound payment guards read. */
export interface OutboundPaymentContext {
  /** Null: send as soon as possible. */
  readonly execution_date: LocalDate | null
  /** Today in the scheme's calendar (the engine reads it from its clock). */
  readonly today: LocalDate
}

const executionDateReached = guard<OutboundPaymentContext>(
  "execution_date_reached",
  "execution_date_not_reached",
  "The outbound payment's execution date has not been reached",
  (c) => c.execution_date === null || c.execution_date <= c.today
)

/**
 * verifying (confirmation of payee runs) -> pending_approval -> (approve) scheduled ->
 * (execution date) executing -> executed by the scheme, or failed during or after execution.
 * Cancelled by a user before execution, or when it is not approved on time.
 *
 * Emitted actions follow the real API's outbound payment events where they exist
 * (`created`, `set_to_pending_approval`, `set_to_executing`, `executed`, `cancelled`, `failed`);
 * `approved` (pending_approval -> scheduled) is this engine's own name: the spec shows none.
 */
export const outboundPaymentMachine = defineMachine<OutboundPaymentContext>()({
  name: "outbound_payments",
  noun: "outbound payment",
  states: OUTBOUND_PAYMENT_STATUSES,
  events: OUTBOUND_PAYMENT_EVENTS,
  initial: ["verifying"],
  terminal: ["cancelled", "failed"],
  created: "created",
  transitions: [
    {
      from: ["verifying"], event: "verification_completed", to: "pending_approval",
      emits: "set_to_pending_approval", reason: "outbound_payment_not_verifying"
    },
    {
      from: ["pending_approval"], event: "approve", to: "scheduled",
      emits: "approved", reason: "outbound_payment_not_approvable"
    },
    {
      from: ["pending_approval"], event: "approval_expired", to: "cancelled",
      emits: "cancelled", reason: "outbound_payment_not_pending_approval"
    },
    {
      from: ["verifying", "pending_approval", "scheduled"], event: "cancel", to: "cancelled",
      emits: "cancelled", reason: "cancellation_failed"
    },
    {
      from: ["scheduled"], event: "execution_date_reached", to: "executing", guard: executionDateReached,
      emits: "set_to_executing", reason: "outbound_payment_not_scheduled"
    },
    {
      from: ["executing"], event: "scheme_accepted", to: "executed",
      emits: "executed", reason: "outbound_payment_not_executing"
    },
    {
      from: ["executing", "executed"], event: "scheme_failed", to: "failed",
      emits: "failed", reason: "outbound_payment_not_sent"
    }
  ]
})

export const outboundPayments = bindMachine(outboundPaymentMachine)
