import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { WEBHOOK_DELIVERY_STATUSES } from "@paykit/machines"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"
import { BooleanQuery, listFields } from "../../kernel/list-params.ts"

/** Header names and values as a record carries them. */
export const HeaderMap = Schema.Record(Schema.String, Schema.String)
export type HeaderMap = typeof HeaderMap.Type

/**
 * A webhook: one attempt to deliver a request to an endpoint, with what was sent and what came
 * back (the real API's `Webhook`). `links` is paykit's: the endpoint it went to and the delivery
 * it belongs to (the `meta.webhook_id` of its body, which is the id of that delivery's first
 * attempt, so `GET /webhooks/{webhook_id}` finds it). `response_time_ms` is paykit's too: the
 * milliseconds from sending the request to the end of the answer (or to the failure), null when
 * nothing was sent; records made before it have none.
 */
export const Webhook = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  url: Schema.String,
  request_headers: HeaderMap,
  request_body: Schema.String,
  response_code: Schema.NullOr(Schema.Int),
  response_headers: Schema.NullOr(HeaderMap),
  response_headers_content_truncated: Schema.Boolean,
  response_headers_count_truncated: Schema.Boolean,
  response_body: NullableString,
  response_body_truncated: Schema.Boolean,
  response_time_ms: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  is_test: Schema.Boolean,
  successful: Schema.Boolean,
  links: Schema.Struct({ webhook_endpoint: Schema.String, delivery: Schema.String })
})
export type Webhook = typeof Webhook.Type

export const WEBHOOKS = "webhooks"

export const webhooks = defineResource({
  name: WEBHOOKS,
  idPrefix: ID_PREFIXES.webhook,
  schema: Webhook,
  filters: {
    created_at: (r: Webhook) => r.created_at,
    successful: (r: Webhook) => String(r.successful),
    is_test: (r: Webhook) => String(r.is_test),
    delivery: (r: Webhook) => r.links.delivery
  }
})

export const WebhookListParams = Schema.Struct({
  ...listFields("webhook"),
  successful: Schema.optionalKey(BooleanQuery),
  is_test: Schema.optionalKey(BooleanQuery)
})
export type WebhookListParams = typeof WebhookListParams.Type

/** Where a delivery stands (`webhookDeliveryMachine`): retries follow `WEBHOOK_RETRY_DELAYS_MS`. */
export { WEBHOOK_DELIVERY_STATUSES }

/**
 * A delivery: one request body (at most `WEBHOOK_MAX_EVENTS` events of one organisation) for one
 * endpoint, tried until it succeeds or is given up. Its id is the body's `meta.webhook_id`; its
 * due row (`webhook_delivery`) is keyed by it. The engine's own record: the API shows its attempts.
 */
export const WebhookDelivery = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  webhook_endpoint: Schema.String,
  request_body: Schema.String,
  status: Schema.Literals(WEBHOOK_DELIVERY_STATUSES),
  attempts: Schema.Int
})
export type WebhookDelivery = typeof WebhookDelivery.Type

export const webhookDeliveries = defineResource({
  name: "webhook_deliveries",
  idPrefix: ID_PREFIXES.webhook,
  schema: WebhookDelivery,
  filters: {
    created_at: (r: WebhookDelivery) => r.created_at,
    webhook_endpoint: (r: WebhookDelivery) => r.webhook_endpoint,
    status: (r: WebhookDelivery) => r.status
  }
})
