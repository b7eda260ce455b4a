import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { decodeRequestEffect, Forbidden } from "@paykit/core"
import { SCENARIO_NAMES, SCENARIO_SIMULATORS, ScenarioRunRequest, ScenarioSimulator, ScenarioSimulators } from "@paykit/engine"
import { SANDBOX_ONLY_REASON } from "./sandbox-routes.ts"
import { type ApiHandler, bindRoutes, declare, type EndpointDeclaration, paramOf, ok, routeOf, single, unwrap } from "@paykit/http"

/**
 * `POST /scenario_simulators/{type}/actions/run`, the real API's sandbox-only endpoint: it speaks
 * the API's protocol (the official client's `scenarioSimulators.run` calls it), so unlike the
 * `/sandbox/` routes it needs the `GoCardless-Version` header. The body is the client's
 * `{"data": {"links": {"resource": ...}}}` (or the attributes under `scenario_simulators`),
 * decoded at the edge. A live server refuses the path with 403, like the `/sandbox/` routes.
 */

const decodeRun = decodeRequestEffect(ScenarioRunRequest, SCENARIO_SIMULATORS)

const RUN = HttpApiEndpoint.post("scenario_simulator_run", "/scenario_simulators/:type/actions/run", {
  // The catalogue's names, for the document; the engine answers an unknown name itself (404 resource_not_found).
  params: { type: Schema.Literals(SCENARIO_NAMES) },
  payload: Schema.Struct({ data: Schema.optionalKey(ScenarioRunRequest) }),
  success: single(SCENARIO_SIMULATORS, ScenarioSimulator)
})

const run = (simulators: ScenarioSimulators["Service"]): ApiHandler => (request, caller) =>
  Effect.gen(function*() {
    const command = yield* decodeRun(yield* unwrap(request, SCENARIO_SIMULATORS, { allowData: true }))
    const answer = yield* simulators.run(caller.organisation, paramOf(request, "type"), command)
    return ok({ [SCENARIO_SIMULATORS]: answer })
  })

export const SCENARIO_ROUTES: ReadonlyArray<EndpointDeclaration<ScenarioSimulators["Service"]>> = [declare(SCENARIO_SIMULATORS, RUN, run)]

/** The scenario simulators bound to the engine's service, for a sandbox server's dispatcher. */
export const scenarioRoutes = bindRoutes(SCENARIO_ROUTES, Effect.gen(function*() {
  return yield* ScenarioSimulators
}))

const refusal: ApiHandler = () => Effect.fail(new Forbidden({ reason: SANDBOX_ONLY_REASON, message: "Scenario simulators are not available on a live server" }))

/** A live server: the path is refused with 403 after authentication, whatever the method. */
export const liveScenarioRoutes = Effect.succeed([{
  ...routeOf(declare(SCENARIO_SIMULATORS, HttpApiEndpoint.get("scenario_simulators_live", "/scenario_simulators/*"), () => refusal), refusal),
  method: "*"
}])
