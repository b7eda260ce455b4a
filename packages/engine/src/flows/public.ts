/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/billing-request-flows.ts"
export * from "./domain/billing-request-templates.ts"
export * from "./domain/billing-request-with-actions.ts"
export * from "./domain/redirect-flows.ts"
export * from "./billing-request-flows.ts"
export * from "./billing-request-templates.ts"
export * from "./billing-requests-with-actions.ts"
export * from "./redirect-flows.ts"
