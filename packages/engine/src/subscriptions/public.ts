/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/subscriptions.ts"
export * from "./subscriptions.ts"
export type { SubscriptionOrigin } from "./subscription-create.ts"
export { sideRecordsDueWork } from "./room.ts"
