/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/payments.ts"
export * from "./domain/payment-reversals.ts"
export * from "./payments.ts"
export * from "./domain/funds-availability.ts"
export * from "./funds-availability.ts"
export {
  type InstantPaymentInput,
  ledgerMandateOf,
  mandateCurrencyRefusal,
  type PaymentOrigin,
  unsettledBalance
} from "./payment-rules.ts"
export * from "./side-records.ts"
