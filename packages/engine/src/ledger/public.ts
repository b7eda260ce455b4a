/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/negative-balance-limits.ts"
export * from "./domain/settlement-entries.ts"
export * from "./negative-balance-limits.ts"
export * from "./domain/app-fees.ts"
export * from "./app-fees.ts"
