import { Effect } from "effect"
import { PaymentListParams, Payments, payments, REQUEST_BODIES } from "@paykit/engine"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "../app-fees.ts"
import { actionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, OPTIONAL_ATTRIBUTES, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Payments: created (an app fee only from a partner app), read, updated, cancelled and retried. */

const services = Effect.gen(function*() {
  return { payments: yield* Payments }
})

const BODIES = REQUEST_BODIES
const PAYMENTS = "payments"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  listEndpoint(PAYMENTS, payments.schema, PaymentListParams, (s) => s.payments.list),
  getEndpoint(PAYMENTS, payments.schema, (s) => s.payments.get),
  createEndpoint(PAYMENTS, payments.schema, BODIES.payments.create, (s) => (o, command) => s.payments.create(o, command), {
    guard: appFeeOnlyForApps(PAYMENTS, APP_FEE_PATHS.top)
  }),
  updateEndpoint(PAYMENTS, payments.schema, BODIES.payments.update, (s) => s.payments.update),
  actionEndpoint("cancel", PAYMENTS, payments.schema, BODIES.payments.cancel, (s) => s.payments.cancel, OPTIONAL_ATTRIBUTES),
  actionEndpoint("retry", PAYMENTS, payments.schema, BODIES.payments.retry, (s) => s.payments.retry, OPTIONAL_ATTRIBUTES)
]

export const paymentsRoom = routeRoom([PAYMENTS], services, declarations)
