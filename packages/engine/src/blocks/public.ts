/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/blocks.ts"
export * from "./blocks.ts"
export * from "./block-screen.ts"
