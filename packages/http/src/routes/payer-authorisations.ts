import { Effect } from "effect"
import { PayerAuthorisations, payerAuthorisations, REQUEST_BODIES } from "@paykit/engine"
import { bodilessActionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Payer authorisations: the payer's details gathered, submitted and confirmed. */

const services = Effect.gen(function*() {
  return { payerAuthorisations: yield* PayerAuthorisations }
})

const PA = "payer_authorisations"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(PA, payerAuthorisations.schema, REQUEST_BODIES.payer_authorisations.create, (s) => s.payerAuthorisations.create),
  getEndpoint(PA, payerAuthorisations.schema, (s) => s.payerAuthorisations.get),
  updateEndpoint(PA, payerAuthorisations.schema, REQUEST_BODIES.payer_authorisations.update, (s) => s.payerAuthorisations.update),
  bodilessActionEndpoint("submit", PA, payerAuthorisations.schema, (s) => s.payerAuthorisations.submit),
  bodilessActionEndpoint("confirm", PA, payerAuthorisations.schema, (s) => s.payerAuthorisations.confirm)
]

export const payerAuthorisationsRoom = routeRoom([PA], services, declarations)
