import { defineMachine, guard } from "./machine.ts"

/** Where a delivery stands: waiting for an attempt, delivered (a 2xx), or given up (its retries spent, or its endpoint disabled). */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "given_up"] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

export const WEBHOOK_DELIVERY_EVENTS = ["succeed", "fail", "give_up"] as const
export type WebhookDeliveryEvent = (typeof WEBHOOK_DELIVERY_EVENTS)[number]

/** What a failed attempt is judged on: whether the endpoint is still enabled and a retry delay is left. */
export interface WebhookDeliveryFacts {
  readonly endpoint_enabled: boolean
  readonly retry_left: boolean
}

const mayRetry = guard<WebhookDeliveryFacts>(
  "endpoint enabled, retry left",
  "webhook_delivery_not_retried",
  "The endpoint is disabled or the delivery's retries are spent",
  (facts) => facts.endpoint_enabled && facts.retry_left
)

/**
 * An engine record, not an API resource: no API event. A pending delivery is delivered by an
 * attempt answered 2xx; a failed attempt leaves it pending for the next retry while its endpoint
 * is enabled and a retry delay is left, else gives it up; a delivery whose endpoint is disabled
 * before an attempt is given up without one.
 */
export const webhookDeliveryMachine = defineMachine<WebhookDeliveryFacts>()({
  name: "webhook_deliveries",
  noun: "webhook delivery",
  states: WEBHOOK_DELIVERY_STATUSES,
  events: WEBHOOK_DELIVERY_EVENTS,
  initial: ["pending"],
  terminal: ["delivered", "given_up"],
  created: null,
  transitions: [
    { from: ["pending"], event: "succeed", to: "delivered", emits: null, reason: "webhook_delivery_not_pending" },
    { from: ["pending"], event: "fail", to: "pending", guard: mayRetry, emits: null, reason: "webhook_delivery_not_pending" },
    { from: ["pending"], event: "fail", to: "given_up", emits: null, reason: "webhook_delivery_not_pending" },
    { from: ["pending"], event: "give_up", to: "given_up", emits: null, reason: "webhook_delivery_not_pending" }
  ]
})
