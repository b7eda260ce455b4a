/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/mandates.ts"
export * from "./domain/mandate-dormancy.ts"
export * from "./mandates.ts"
export * from "./mandate-dormancy.ts"
export { minimumAdvanceNotice, withNextPossibleChargeDate } from "./mandate-rules.ts"
export { MandateEndings } from "./mandate-cancel.ts"
