/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./payer.ts"
export * from "./repository-contract.ts"
export * from "./due-work-contract.ts"
export * from "./production-contract.ts"
export * from "./storage-contract.ts"
export { check, CONTRACT_ORG, CONTRACT_OTHER_ORG, SAMPLE_BASE_MS, sameList, sampleEvent } from "./contract-support.ts"
export * from "./failing-storage.ts"
export * from "./daily-isolation.ts"
