import { Layer } from "effect"
import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { WebhookEndpointCreateRequest, webhookEndpoints, WebhookEndpointUpdateRequest } from "./domain/webhook-endpoints.ts"
import { webhookDeliveries, webhooks } from "./domain/webhooks.ts"
import { WebhookDeliveryRepository, WebhookEndpointRepository, WebhookRepository } from "./repositories.ts"

/**
 * The webhooks' room: endpoints, the webhooks sent and their deliveries. Its due work (the
 * deliveries and the outbox pump, `jobs.ts`) is a server's: the sandbox sends at once.
 */
export const webhooksRoom = defineRoom({
  resources: [webhookEndpoints, webhookDeliveries, webhooks],
  repositories: Layer.mergeAll(
    fromBackend(WebhookEndpointRepository, webhookEndpoints),
    fromBackend(WebhookDeliveryRepository, webhookDeliveries),
    fromBackend(WebhookRepository, webhooks)
  ),
  requestBodies: { webhook_endpoints: { create: WebhookEndpointCreateRequest, update: WebhookEndpointUpdateRequest } }
})
