/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/bank-account-holder-verifications.ts"
export * from "./bank-account-holder-verifications.ts"
