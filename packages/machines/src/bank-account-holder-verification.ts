import { defineMachine } from "./machine.ts"

/** A bank account holder verification's statuses, as the real API. */
export const BANK_ACCOUNT_HOLDER_VERIFICATION_STATUSES = ["pending", "completed"] as const
export type BankAccountHolderVerificationStatus = (typeof BANK_ACCOUNT_HOLDER_VERIFICATION_STATUSES)[number]

export const BANK_ACCOUNT_HOLDER_VERIFICATION_EVENTS = ["complete"] as const
export type BankAccountHolderVerificationEvent = (typeof BANK_ACCOUNT_HOLDER_VERIFICATION_EVENTS)[number]

/**
 * A confirmation of payee check: pending until the account's bank answers, then completed with
 * its result. The engine asks the bank before it stores the check, so it is stored completed,
 * with both steps in its history. No API event.
 */
export const bankAccountHolderVerificationMachine = defineMachine<Record<never, never>>()({
  name: "bank_account_holder_verifications",
  noun: "bank account holder verification",
  states: BANK_ACCOUNT_HOLDER_VERIFICATION_STATUSES,
  events: BANK_ACCOUNT_HOLDER_VERIFICATION_EVENTS,
  initial: ["pending"],
  terminal: ["completed"],
  created: null,
  transitions: [
    { from: ["pending"], event: "complete", to: "completed", emits: null, reason: "verification_not_pending" }
  ]
})
