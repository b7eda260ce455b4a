import { Effect } from "effect"
import { MandateListParams, Mandates, mandates, REQUEST_BODIES } from "@paykit/engine"
import { actionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, OPTIONAL_ATTRIBUTES, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Mandates: created, read, updated, cancelled and reinstated. */

const services = Effect.gen(function*() {
  return { mandates: yield* Mandates }
})

const BODIES = REQUEST_BODIES
const MANDATES = "mandates"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  listEndpoint(MANDATES, mandates.schema, MandateListParams, (s) => s.mandates.list),
  getEndpoint(MANDATES, mandates.schema, (s) => s.mandates.get),
  createEndpoint(MANDATES, mandates.schema, BODIES.mandates.create, (s) => (o, command) => s.mandates.create(o, command)),
  updateEndpoint(MANDATES, mandates.schema, BODIES.mandates.update, (s) => s.mandates.update),
  actionEndpoint("cancel", MANDATES, mandates.schema, BODIES.mandates.cancel, (s) => s.mandates.cancel, OPTIONAL_ATTRIBUTES),
  actionEndpoint("reinstate", MANDATES, mandates.schema, BODIES.mandates.reinstate, (s) => s.mandates.reinstate, OPTIONAL_ATTRIBUTES)
]

export const mandatesRoom = routeRoom([MANDATES], services, declarations)
