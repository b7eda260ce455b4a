import { defineMachine } from "./machine.ts"

/** A creditor bank account's verification statuses, as the real API (`CreditorBankAccountVerificationStatus`). */
export const CREDITOR_BANK_ACCOUNT_VERIFICATION_STATUSES = ["pending", "in_review", "successful", "could_not_verify"] as const
export type CreditorBankAccountVerificationStatus = (typeof CREDITOR_BANK_ACCOUNT_VERIFICATION_STATUSES)[number]

export const CREDITOR_BANK_ACCOUNT_VERIFICATION_EVENTS = ["submit_details", "approve", "reject"] as const
export type CreditorBankAccountVerificationEvent = (typeof CREDITOR_BANK_ACCOUNT_VERIFICATION_EVENTS)[number]

/**
 * A creditor bank account's verification (its `verification_status`). An account awaits its
 * details (`pending`) or, made with them as `POST /creditor_bank_accounts` makes it, is in review;
 * the review verifies it or could not. No API event: the real API sends none for the review.
 */
export const creditorBankAccountVerificationMachine = defineMachine<Record<never, never>>()({
  name: "creditor_bank_accounts",
  noun: "creditor bank account verification",
  field: "verification_status",
  states: CREDITOR_BANK_ACCOUNT_VERIFICATION_STATUSES,
  events: CREDITOR_BANK_ACCOUNT_VERIFICATION_EVENTS,
  initial: ["pending", "in_review"],
  terminal: ["successful", "could_not_verify"],
  created: null,
  transitions: [
    { from: ["pending"], event: "submit_details", to: "in_review", emits: null, reason: "bank_account_not_pending" },
    { from: ["in_review"], event: "approve", to: "successful", emits: null, reason: "bank_account_not_in_review" },
    { from: ["in_review"], event: "reject", to: "could_not_verify", emits: null, reason: "bank_account_not_in_review" }
  ]
})
