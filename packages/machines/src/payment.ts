import { Schema } from "effect"
import { bindMachine, defineMachine } from "./machine.ts"

/** Payment statuses, as the real API (`PaymentStatus`). */
export const PAYMENT_STATUSES = [
  "pending_customer_approval", "pending_submission", "submitted", "confirmed", "paid_out", "cancelled",
  "customer_approval_denied", "failed", "charged_back"
] as const
export const PaymentStatus = Schema.Literals(PAYMENT_STATUSES).annotate({ identifier: "PaymentStatus" })
export type PaymentStatus = typeof PaymentStatus.Type

export const PAYMENT_EVENTS = [
  "customer_approval_granted", "customer_approval_denied", "submit", "confirm", "pay_out", "fail", "charge_back",
  "cancel_chargeback", "settle_late_failure", "settle_chargeback", "cancel", "retry"
] as const
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number]

/**
 * The real API's payment life: pending_submission -> submitted -> confirmed -> paid_out; failed
 * (also late, after confirmation or pay-out) and retried; charged back (and the chargeback
 * cancelled); the fees of a late failure or chargeback settled in a payout, which emits an
 * action without a change of status. Payments have no guard: their facts live in the bank.
 */
export const paymentMachine = defineMachine<Record<never, never>>()({
  name: "payments",
  noun: "payment",
  states: PAYMENT_STATUSES,
  events: PAYMENT_EVENTS,
  initial: ["pending_submission", "pending_customer_approval"],
  terminal: ["cancelled", "customer_approval_denied"],
  created: "created",
  transitions: [
    {
      from: ["pending_customer_approval"], event: "customer_approval_granted", to: "pending_submission",
      emits: "customer_approval_granted", reason: "payment_not_pending_customer_approval"
    },
    {
      from: ["pending_customer_approval"], event: "customer_approval_denied", to: "customer_approval_denied",
      emits: "customer_approval_denied", reason: "payment_not_pending_customer_approval"
    },
    { from: ["pending_submission"], event: "submit", to: "submitted", emits: "submitted", reason: "payment_not_pending_submission" },
    { from: ["submitted"], event: "confirm", to: "confirmed", emits: "confirmed", reason: "payment_not_submitted" },
    { from: ["confirmed"], event: "pay_out", to: "paid_out", emits: "paid_out", reason: "payment_not_confirmed" },
    {
      from: ["submitted", "confirmed", "paid_out"], event: "fail", to: "failed",
      emits: "failed", reason: "payment_not_submitted"
    },
    {
      from: ["confirmed", "paid_out"], event: "charge_back", to: "charged_back",
      emits: "charged_back", reason: "payment_not_collected"
    },
    {
      from: ["charged_back"], event: "cancel_chargeback", to: "paid_out",
      emits: "chargeback_cancelled", reason: "payment_not_charged_back"
    },
    {
      from: ["failed"], event: "settle_late_failure", to: "failed",
      emits: "late_failure_settled", reason: "payment_not_failed"
    },
    {
      from: ["charged_back"], event: "settle_chargeback", to: "charged_back",
      emits: "chargeback_settled", reason: "payment_not_charged_back"
    },
    {
      from: ["pending_customer_approval", "pending_submission"], event: "cancel", to: "cancelled",
      emits: "cancelled", reason: "cancellation_failed"
    },
    {
      from: ["failed"], event: "retry", to: "pending_submission",
      emits: "resubmission_requested", reason: "retry_failed"
    }
  ]
})

export const payments = bindMachine(paymentMachine)
