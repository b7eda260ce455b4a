/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain.ts"
export { SCENARIO_NAMES, SCENARIOS, ScenarioSimulators } from "./scenario-simulators.ts"
