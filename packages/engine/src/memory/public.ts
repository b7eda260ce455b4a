/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./in-memory.ts"
export * from "./sandbox-bank.ts"
export * from "./due-store.ts"
export * from "./files-bank.ts"
