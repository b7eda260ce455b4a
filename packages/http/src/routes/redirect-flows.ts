import { Effect } from "effect"
import { REQUEST_BODIES, RedirectFlow, RedirectFlows } from "@paykit/engine"
import { actionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Redirect flows: the older hosted mandate set-up, created, read and completed. */

const services = Effect.gen(function*() {
  return { redirectFlows: yield* RedirectFlows }
})

const RE = "redirect_flows"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(RE, RedirectFlow, REQUEST_BODIES.redirect_flows.create, (s) => s.redirectFlows.create),
  getEndpoint(RE, RedirectFlow, (s) => s.redirectFlows.get),
  actionEndpoint("complete", RE, RedirectFlow, REQUEST_BODIES.redirect_flows.complete, (s) => s.redirectFlows.complete)
]

export const redirectFlowsRoom = routeRoom([RE], services, declarations)
