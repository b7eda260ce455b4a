/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/customer-bank-accounts.ts"
export * from "./domain/customers.ts"
export * from "./customers.ts"
export * from "./account-schemes.ts"
export * from "./bank-details-vault.ts"
export * from "./payer-ports.ts"
