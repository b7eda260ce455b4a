/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/mandate-pdfs.ts"
export * from "./mandate-pdfs.ts"
export * from "./due.ts"
