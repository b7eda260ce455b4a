/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./retention.ts"
