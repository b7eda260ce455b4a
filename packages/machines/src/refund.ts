import { Schema } from "effect"
import { bindMachine, defineMachine } from "./machine.ts"

/** Refund statuses, as the real API (`RefundStatus`). */
export const REFUND_STATUSES = [
  "created", "pending_submission", "submitted", "paid", "cancelled", "bounced", "funds_returned"
] as const
export const RefundStatus = Schema.Literals(REFUND_STATUSES).annotate({ identifier: "RefundStatus" })
export type RefundStatus = typeof RefundStatus.Type

export const REFUND_EVENTS = ["queue", "submit", "pay", "settle", "cancel", "bounce", "return_funds"] as const
export type RefundEvent = (typeof REFUND_EVENTS)[number]

/**
 * created -> pending_submission -> submitted -> paid; settled in a payout (`refund_settled`, no
 * change of status); cancelled before submission; bounced by the payer's bank (the real API's
 * `failed`); funds returned after payment. Queueing and submission emit nothing, as in the real
 * API; `cancelled` is this engine's own name.
 */
export const refundMachine = defineMachine<Record<never, never>>()({
  name: "refunds",
  noun: "refund",
  states: REFUND_STATUSES,
  events: REFUND_EVENTS,
  initial: ["created"],
  terminal: ["cancelled", "bounced", "funds_returned"],
  created: "created",
  transitions: [
    { from: ["created"], event: "queue", to: "pending_submission", emits: null, reason: "refund_not_created" },
    { from: ["pending_submission"], event: "submit", to: "submitted", emits: null, reason: "refund_not_pending_submission" },
    { from: ["submitted"], event: "pay", to: "paid", emits: "paid", reason: "refund_not_submitted" },
    { from: ["paid"], event: "settle", to: "paid", emits: "refund_settled", reason: "refund_not_paid" },
    { from: ["created", "pending_submission"], event: "cancel", to: "cancelled", emits: "cancelled", reason: "cancellation_failed" },
    { from: ["submitted", "paid"], event: "bounce", to: "bounced", emits: "failed", reason: "refund_not_submitted" },
    { from: ["paid"], event: "return_funds", to: "funds_returned", emits: "funds_returned", reason: "refund_not_paid" }
  ]
})

export const refunds = bindMachine(refundMachine)
