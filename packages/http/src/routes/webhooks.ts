import type { OrganisationId } from "@paykit/core"
import { Effect, Option, Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import {
  BillingRequests,
  CreatedWebhookEndpoint,
  Creditors,
  Customers,
  type Event,
  type EventInclude,
  EventListParams,
  InstalmentSchedules,
  Mandates,
  OutboundPayments,
  PayerAuthorisations,
  PaymentAccountTransactions,
  Payments,
  Payouts,
  SchemeIdentifiers,
  Subscriptions,
  Events,
  events,
  REQUEST_BODIES,
  WEBHOOK_ENDPOINTS,
  WebhookEndpoint,
  WebhookEndpointListParams,
  WebhookEndpoints,
  WebhookListParams,
  Webhooks,
  webhooks
} from "@paykit/engine"
import { annotateEach, bodilessActionEndpoint, createEndpoint, declare, type EndpointDeclaration, getEndpoint, listEndpoint, updateEndpoint } from "../endpoints.ts"
import { queryDeclaration, queryShapeOf } from "../query-params.ts"
import { listHandler } from "../read-handlers.ts"
import { page } from "../wire.ts"
import { routeRoom } from "../routes.ts"

const EVENTS = "events"

/**
 * Events, the webhooks that deliver them (every attempt of a delivery, and sending one again),
 * and the organisation's webhook endpoints they are delivered to.
 */

const services = Effect.gen(function*() {
  return { events: yield* Events, webhooks: yield* Webhooks, webhookEndpoints: yield* WebhookEndpoints, linked: yield* linkedReaders }
})

/** A read of a resource by id, as the resource's own `GET` answers it. */
type Reader = (organisation: OrganisationId, id: string) => Effect.Effect<unknown, unknown>

/** Each kind `include` may name: the list key it is carried under in `linked`, and its read. */
const linkedReaders = Effect.gen(function*() {
  const payments = yield* Payments
  const creditors = yield* Creditors
  const readers: Readonly<Record<EventInclude, readonly [string, Reader]>> = {
    billing_request: ["billing_requests", (yield* BillingRequests).get],
    creditor: ["creditors", creditors.get],
    customer: ["customers", (yield* Customers).get],
    instalment_schedule: ["instalment_schedules", (yield* InstalmentSchedules).get],
    mandate: ["mandates", (yield* Mandates).get],
    outbound_payment: ["outbound_payments", (yield* OutboundPayments).get],
    payer_authorisation: ["payer_authorisations", (yield* PayerAuthorisations).get],
    payment: ["payments", payments.get],
    payment_account_transaction: ["payment_account_transactions", (yield* PaymentAccountTransactions).get],
    payout: ["payouts", (yield* Payouts).get],
    refund: ["refunds", payments.getRefund],
    scheme_identifier: ["scheme_identifiers", (yield* SchemeIdentifiers).get],
    subscription: ["subscriptions", (yield* Subscriptions).get]
  }
  return readers
})

/**
 * `include`: the resources the page's events link under that kind, each once, under
 * `linked.<their list key>` (the real API's compound documents). A linked resource that can no
 * longer be read (a removed customer) is left out.
 */
const linkedOf = (readers: Effect.Success<typeof linkedReaders>) =>
  (organisation: OrganisationId, params: EventListParams, items: ReadonlyArray<Event>) => {
    if (params.include === undefined) return Effect.succeed({})
    const [key, read] = readers[params.include]
    const ids = [...new Set(items.flatMap((event) => {
      const id = event.links[params.include ?? ""]
      return id === undefined ? [] : [id]
    }))]
    return Effect.map(
      Effect.forEach(ids, (id) => Effect.option(read(organisation, id))),
      (found) => ({ linked: { [key]: found.flatMap((o) => Option.isSome(o) ? [o.value] : []) } })
    )
  }

/** A page of events, with the resources `include` asked for. */
const EventPage = Schema.Struct({
  ...page(EVENTS, events.schema).fields,
  linked: Schema.optionalKey(Schema.Record(Schema.String, Schema.Array(Schema.Unknown)))
})
type Declaration = EndpointDeclaration<Effect.Success<typeof services>>

const WEBHOOKS = "webhooks"

/** paykit's own extension (the real API manages endpoints in its dashboard), said so in the OpenAPI document. */
const endpointRoutes: ReadonlyArray<Declaration> = annotateEach([
  createEndpoint(WEBHOOK_ENDPOINTS, CreatedWebhookEndpoint, REQUEST_BODIES.webhook_endpoints.create, (s) => s.webhookEndpoints.create),
  listEndpoint(WEBHOOK_ENDPOINTS, WebhookEndpoint, WebhookEndpointListParams, (s) => s.webhookEndpoints.list),
  getEndpoint(WEBHOOK_ENDPOINTS, WebhookEndpoint, (s) => s.webhookEndpoints.get),
  updateEndpoint(WEBHOOK_ENDPOINTS, WebhookEndpoint, REQUEST_BODIES.webhook_endpoints.update, (s) => s.webhookEndpoints.update),
  bodilessActionEndpoint("disable", WEBHOOK_ENDPOINTS, WebhookEndpoint, (s) => s.webhookEndpoints.disable)
], OpenApi.Description, () =>
  "paykit's own API extension, not part of the GoCardless API: the organisation's webhook endpoints. The secret is shown once, in the answer to the creation. docs/webhooks.md")

const declarations: ReadonlyArray<Declaration> = [
  declare(
    EVENTS,
    HttpApiEndpoint.get("list", `/${EVENTS}`, { query: queryDeclaration(queryShapeOf(EventListParams)), success: EventPage }),
    (s) => listHandler(EVENTS, EventListParams, s.events.list, linkedOf(s.linked))
  ),
  getEndpoint(EVENTS, events.schema, (s) => s.events.get),
  listEndpoint(WEBHOOKS, webhooks.schema, WebhookListParams, (s) => s.webhooks.list),
  getEndpoint(WEBHOOKS, webhooks.schema, (s) => s.webhooks.get),
  bodilessActionEndpoint("retry", WEBHOOKS, webhooks.schema, (s) => s.webhooks.retry),
  ...endpointRoutes
]

export const webhooksRoom = routeRoom([EVENTS, WEBHOOKS, WEBHOOK_ENDPOINTS], services, declarations)
