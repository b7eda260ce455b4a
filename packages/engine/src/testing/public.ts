/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./payer.ts"
export * from "./repository-contract.ts"
export * from "./failing-storage.ts"
export * from "./daily-isolation.ts"
