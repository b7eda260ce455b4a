import { defineRoom, store } from "../registry/room.ts"
import { WebhookEndpointCreateRequest, webhookEndpoints, WebhookEndpointUpdateRequest } from "./domain/webhook-endpoints.ts"
import { webhookDeliveries, webhooks } from "./domain/webhooks.ts"
import { WebhookDeliveryRepository, WebhookEndpointRepository, WebhookRepository } from "./repositories.ts"
import { WebhookServices } from "./webhook-services.ts"

/**
 * The webhooks' room: endpoints, the webhooks sent and their deliveries. Its due work (the
 * deliveries and the outbox pump, `jobs.ts`) is a server's: the sandbox sends at once.
 */
export const webhooksRoom = defineRoom({
  stores: [
    store(WebhookEndpointRepository, webhookEndpoints),
    store(WebhookDeliveryRepository, webhookDeliveries),
    store(WebhookRepository, webhooks)
  ],
  requestBodies: { webhook_endpoints: { create: WebhookEndpointCreateRequest, update: WebhookEndpointUpdateRequest } },
  services: WebhookServices
})
