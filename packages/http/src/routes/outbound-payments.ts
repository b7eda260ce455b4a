import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import { OutboundPaymentListParams, OutboundPayments, outboundPayments, OutboundPaymentStatistics, OutboundPaymentStats, REQUEST_BODIES } from "@paykit/engine"
import { ok } from "../api-response.ts"
import {
  actionEndpoint,
  annotateEach,
  bodilessActionEndpoint,
  createEndpoint,
  declare,
  type EndpointDeclaration,
  getEndpoint,
  Idempotent,
  listEndpoint,
  OPTIONAL_ATTRIBUTES,
  RateLimit,
  updateEndpoint
} from "../endpoints.ts"
import { OUTBOUND_PAYMENT_OTHER, OUTBOUND_PAYMENT_WRITES } from "../rate-limit.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { createHandler } from "../write-handlers.ts"

/**
 * Outbound payments: created (or withdrawn to the creditor's own account), read, approved,
 * cancelled, and the organisation's statistics of them. Every route counts against one of the
 * spec's two limits on outbound payments: its POSTs against one, every other call against the other.
 */

const services = Effect.gen(function*() {
  return { outbound: yield* OutboundPayments, outboundStats: yield* OutboundPaymentStatistics }
})

const BODIES = REQUEST_BODIES
const OUTBOUND = "outbound_payments"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = annotateEach([
  createEndpoint(OUTBOUND, outboundPayments.schema, BODIES.outbound_payments.create, (s) => s.outbound.create),
  declare(
    OUTBOUND,
    HttpApiEndpoint.post("withdrawal", `/${OUTBOUND}/withdrawal`, {
      payload: Schema.Struct({ data: Schema.optionalKey(BODIES.outbound_payments.withdrawal) }),
      success: single(OUTBOUND, outboundPayments.schema).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) => createHandler(OUTBOUND, BODIES.outbound_payments.withdrawal, s.outbound.withdraw, { allowData: true })
  ),
  listEndpoint(OUTBOUND, outboundPayments.schema, OutboundPaymentListParams, (s) => s.outbound.list),
  getEndpoint(OUTBOUND, outboundPayments.schema, (s) => s.outbound.get),
  updateEndpoint(OUTBOUND, outboundPayments.schema, BODIES.outbound_payments.update, (s) => s.outbound.update),
  bodilessActionEndpoint("approve", OUTBOUND, outboundPayments.schema, (s) => s.outbound.approve),
  actionEndpoint("cancel", OUTBOUND, outboundPayments.schema, BODIES.outbound_payments.cancel, (s) => s.outbound.cancel, OPTIONAL_ATTRIBUTES),
  declare(
    OUTBOUND,
    HttpApiEndpoint.get("stats", `/${OUTBOUND}/stats`, { success: Schema.Struct({ outbound_payments: OutboundPaymentStats }) }),
    (s) => (_request, caller) => Effect.map(s.outboundStats.stats(caller.organisation), (stats) => ok({ [OUTBOUND]: stats }))
  )
], RateLimit, (endpoint) => endpoint.method === "POST" ? OUTBOUND_PAYMENT_WRITES : OUTBOUND_PAYMENT_OTHER)

export const outboundPaymentsRoom = routeRoom([OUTBOUND], services, declarations)
