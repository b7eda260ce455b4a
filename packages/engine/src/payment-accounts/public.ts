/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/payment-accounts.ts"
export * from "./payment-accounts.ts"
export * from "./domain/payment-account-transactions.ts"
export * from "./payment-account-transactions.ts"
