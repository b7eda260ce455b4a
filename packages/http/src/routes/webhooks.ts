import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import {
  CreatedWebhookEndpoint,
  EventListParams,
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
import { annotateEach, bodilessActionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/**
 * Events, the webhooks that deliver them (every attempt of a delivery, and sending one again),
 * and the organisation's webhook endpoints they are delivered to.
 */

const services = Effect.gen(function*() {
  return { events: yield* Events, webhooks: yield* Webhooks, webhookEndpoints: yield* WebhookEndpoints }
})
type Declaration = EndpointDeclaration<Effect.Success<typeof services>>

const EVENTS = "events"
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
  listEndpoint(EVENTS, events.schema, EventListParams, (s) => s.events.list),
  getEndpoint(EVENTS, events.schema, (s) => s.events.get),
  listEndpoint(WEBHOOKS, webhooks.schema, WebhookListParams, (s) => s.webhooks.list),
  getEndpoint(WEBHOOKS, webhooks.schema, (s) => s.webhooks.get),
  bodilessActionEndpoint("retry", WEBHOOKS, webhooks.schema, (s) => s.webhooks.retry),
  ...endpointRoutes
]

export const webhooksRoom = routeRoom([EVENTS, WEBHOOKS, WEBHOOK_ENDPOINTS], services, declarations)
