/**
 * @paykit/machines: one declared transition table per resource (states, events, guards, emitted
 * API event actions), the pure functions that apply them, and the Mermaid diagrams derived from
 * them. No storage, no clock: the engine passes the instant and stores the history entries.
 */
export * from "./access-token.ts"
export * from "./bank-account-holder-verification.ts"
export * from "./bank-authorisation.ts"
export * from "./billing-request-actions.ts"
export * from "./billing-request.ts"
export * from "./creditor-bank-account-verification.ts"
export * from "./creditor-verification.ts"
export * from "./diagram.ts"
export * from "./history.ts"
export * from "./instalment-schedule.ts"
export * from "./machine.ts"
export * from "./mandate-import.ts"
export * from "./mandate.ts"
export * from "./oauth-app.ts"
export * from "./outbound-payment-import.ts"
export * from "./outbound-payment.ts"
export * from "./payer-authorisation.ts"
export * from "./payment.ts"
export * from "./payout.ts"
export * from "./refund.ts"
export * from "./registry.ts"
export * from "./scheme-identifier.ts"
export * from "./subscription.ts"
export * from "./webhook-delivery.ts"
