import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, NotFound, type OperationError, type OrganisationId } from "@paykit/core"
import { BILLING_REQUEST_SCENARIOS } from "./billing-request-scenarios.ts"
import { isScenarioName, type ScenarioName } from "./catalogue.ts"
import { CREDITOR_SCENARIOS } from "./creditor-scenarios.ts"
import { type ScenarioDeps, scenarioDeps } from "./deps.ts"
import { type Scenario, SCENARIO_SIMULATORS, ScenarioRunRequest, type ScenarioSimulator } from "./domain.ts"
import { MANDATE_SCENARIOS } from "./mandate-scenarios.ts"
import { PAYMENT_SCENARIOS } from "./payment-scenarios.ts"
import { PAYOUT_SCENARIOS } from "./payout-scenarios.ts"
import { REFUND_SCENARIOS } from "./refund-scenarios.ts"

const decodeRun = decodeAtBoundary(ScenarioRunRequest, SCENARIO_SIMULATORS)

/** Every scenario of the catalogue by its GoCardless name, with what it does. */
export const SCENARIOS: Readonly<Record<ScenarioName, Scenario<ScenarioDeps>>> = {
  ...CREDITOR_SCENARIOS,
  ...PAYMENT_SCENARIOS,
  ...MANDATE_SCENARIOS,
  ...REFUND_SCENARIOS,
  ...PAYOUT_SCENARIOS,
  ...BILLING_REQUEST_SCENARIOS
}

/**
 * The sandbox's scenario simulators (`POST /scenario_simulators/{type}/actions/run`): each moves
 * the resource it names through the moves its real path makes (the daily run's, the payout
 * assembly's, the billing request use cases'), with their events, or refuses with 422 when the
 * resource is not where the scenario starts. An unknown name is 404. The HTTP layer serves it
 * on a sandbox server only.
 */
export class ScenarioSimulators extends Context.Service<ScenarioSimulators, {
  readonly run: (organisation: OrganisationId, name: string, command: typeof ScenarioRunRequest.Encoded) => Effect.Effect<ScenarioSimulator, OperationError>
}>()("@paykit/engine/ScenarioSimulators") {
  static readonly layer = Layer.effect(
    ScenarioSimulators,
    Effect.gen(function*() {
      const deps = yield* scenarioDeps
      return ScenarioSimulators.of({
        run: (organisation, name, command) => {
          const scenario = isScenarioName(name) ? SCENARIOS[name] : undefined
          if (scenario === undefined) return Effect.fail(new NotFound({ resource: SCENARIO_SIMULATORS, id: name }))
          return Effect.flatMap(decodeRun(command), (c) => Effect.as(scenario.run(deps, organisation, c.links.resource, name), { id: name }))
        }
      })
    })
  )
}
