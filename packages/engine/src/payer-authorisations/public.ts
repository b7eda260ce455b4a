/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/payer-authorisations.ts"
export * from "./payer-authorisations.ts"
