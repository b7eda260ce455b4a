/** The stored request log: its records and store, the redaction, the writer. */
export * from "./redaction.ts"
export * from "./store.ts"
export * from "./writer.ts"
