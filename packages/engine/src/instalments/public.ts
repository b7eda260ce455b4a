/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain/instalment-schedules.ts"
export * from "./instalment-schedules.ts"
export { scheduleEventFor } from "./instalment-schedule-due.ts"
