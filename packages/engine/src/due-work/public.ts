/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./port.ts"
export * from "./daily-items.ts"
export * from "./daily-clock.ts"
export * from "./jobs.ts"
export * from "./daily-run.ts"
export * from "./worker.ts"
export * from "./simulator.ts"
export * from "./deadlines.ts"
