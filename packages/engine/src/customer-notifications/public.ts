/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/customer-notifications.ts"
export * from "./customer-notifications.ts"
