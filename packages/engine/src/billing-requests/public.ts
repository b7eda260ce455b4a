/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/billing-details.ts"
export * from "./domain/billing-requests.ts"
export * from "./billing-request-steps.ts"
export * from "./billing-requests.ts"
