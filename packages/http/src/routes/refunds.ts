import { Effect } from "effect"
import { Payments, RefundListParams, refunds, REQUEST_BODIES } from "@paykit/engine"
import { createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Refunds of payments: the engine's `Payments` service makes and reads them. */

const services = Effect.gen(function*() {
  return { payments: yield* Payments }
})

const BODIES = REQUEST_BODIES
const REFUNDS = "refunds"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  listEndpoint(REFUNDS, refunds.schema, RefundListParams, (s) => s.payments.listRefunds),
  getEndpoint(REFUNDS, refunds.schema, (s) => s.payments.getRefund),
  createEndpoint(REFUNDS, refunds.schema, BODIES.refunds.create, (s) => s.payments.createRefund),
  updateEndpoint(REFUNDS, refunds.schema, BODIES.refunds.update, (s) => s.payments.updateRefund)
]

export const refundsRoom = routeRoom([REFUNDS], services, declarations)
