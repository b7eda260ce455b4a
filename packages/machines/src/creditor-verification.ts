import { Schema } from "effect"
import { defineMachine } from "./machine.ts"

/** A creditor's verification statuses, as the real API (`CreditorVerificationStatus`). */
export const CREDITOR_VERIFICATION_STATUSES = ["successful", "in_review", "action_required"] as const
export const CreditorVerificationStatus = Schema.Literals(CREDITOR_VERIFICATION_STATUSES).annotate({
  identifier: "CreditorVerificationStatus"
})
export type CreditorVerificationStatus = typeof CreditorVerificationStatus.Type

export const CREDITOR_VERIFICATION_EVENTS = ["submit_details", "approve", "require_action", "change_payout_account"] as const
export type CreditorVerificationEvent = (typeof CREDITOR_VERIFICATION_EVENTS)[number]

/**
 * A creditor's verification (spec: successful = fully verified and can receive payouts, further
 * verification may be required later, for example after a payout bank account change; in_review
 * = all requested information provided, awaiting review; action_required = more information
 * needed). A new creditor needs action; submitting verification details puts it in review; the
 * review approves it (the creditor is `updated`) or asks for more (`require_action`, also an
 * update of the creditor); a verified creditor whose default payout account changes is reviewed
 * again. The state is the creditor's `verification_status`, not a `status` of its own.
 */
export const creditorVerificationMachine = defineMachine<Record<never, never>>()({
  name: "creditors",
  noun: "creditor verification",
  field: "verification_status",
  states: CREDITOR_VERIFICATION_STATUSES,
  events: CREDITOR_VERIFICATION_EVENTS,
  initial: ["action_required"],
  terminal: [],
  created: "created",
  transitions: [
    { from: ["action_required"], event: "submit_details", to: "in_review", emits: null, reason: "creditor_not_action_required" },
    { from: ["in_review"], event: "approve", to: "successful", emits: "updated", reason: "creditor_not_in_review" },
    { from: ["in_review"], event: "require_action", to: "action_required", emits: "updated", reason: "creditor_not_in_review" },
    { from: ["successful"], event: "change_payout_account", to: "in_review", emits: null, reason: "creditor_not_verified" }
  ]
})

