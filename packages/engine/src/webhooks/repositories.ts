import { repositoryService } from "../kernel/repository-service.ts"
import { webhookEndpoints } from "./domain/webhook-endpoints.ts"
import { webhookDeliveries, webhooks } from "./domain/webhooks.ts"

/** The repositories of the webhooks feature's records, keyed `@paykit/engine/<name>`. */
export class WebhookEndpointRepository extends repositoryService<WebhookEndpointRepository>()("WebhookEndpointRepository", webhookEndpoints) {}
export class WebhookDeliveryRepository extends repositoryService<WebhookDeliveryRepository>()("WebhookDeliveryRepository", webhookDeliveries) {}
export class WebhookRepository extends repositoryService<WebhookRepository>()("WebhookRepository", webhooks) {}
