/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/bank-authorisations.ts"
export * from "./bank-authorisations.ts"
export * from "./due.ts"
