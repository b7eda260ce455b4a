import { Effect } from "effect"
import type { DueWorkDeclarations } from "../kernel/ports/due-work.ts"
import { WEBHOOK_DELIVERY_KIND, WebhookDeliveries } from "./delivery-due.ts"

/**
 * The webhooks feature's due work, for the worker: the `webhook_delivery` kind (one attempt of a
 * delivery per run) and the pump that turns the outbox's events into deliveries.
 */
export const webhookDueWork: Effect.Effect<DueWorkDeclarations, never, WebhookDeliveries> = Effect.map(
  WebhookDeliveries,
  (deliveries): DueWorkDeclarations => ({
    kinds: [{ kind: WEBHOOK_DELIVERY_KIND, run: deliveries.deliver }],
    pumps: [{ name: "webhook outbox", run: deliveries.pump }]
  })
)
