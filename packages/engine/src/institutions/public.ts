/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./data/institutions.ts"
export * from "./domain/institutions.ts"
export * from "./institutions.ts"
