/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/public-keys.ts"
export * from "./domain/logos.ts"
export * from "./public-keys.ts"
export * from "./encrypted-details.ts"
export * from "./logos.ts"
