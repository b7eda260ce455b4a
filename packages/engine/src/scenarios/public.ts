/** What the engine exports of this room (`src/index.ts` re-exports it whole). */
export * from "./domain.ts"
export {
  isScenarioName, nearestScenario, SCENARIO_CATALOGUE, SCENARIO_NAMES, type ScenarioCollection, type ScenarioEntry, scenarioEntry, type ScenarioName,
  scenariosFor, type ScenarioTarget
} from "./catalogue.ts"
export { SCENARIOS, ScenarioSimulators } from "./scenario-simulators.ts"
