import { Layer } from "effect"
import { WebhookEndpoints } from "./webhook-endpoints.ts"
import { Webhooks } from "./webhooks.ts"

/**
 * The API-facing webhook services: endpoints and the records of attempts. Delivery itself
 * (`WebhookDeliveries`) is due work, built where a worker and an outbox exist (the SQL store).
 */
export const WebhookServices = Layer.mergeAll(WebhookEndpoints.layer, Webhooks.layer)
