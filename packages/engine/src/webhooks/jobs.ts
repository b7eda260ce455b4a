import { Effect } from "effect"
import type { DueWorkDeclarations } from "../due-work/port.ts"
import { WEBHOOK_DELIVERY_KIND, WebhookDeliveries } from "./delivery-due.ts"

/**
 * The webhooks feature's due work, for the worker: the `webhook_delivery` kind (one attempt of a
 * delivery per run) and the pump that turns the outbox's events into deliveries. A delivery opens
 * its own unit of work after its request (`ownUnitsOfWork`), so no transaction is held open for the
 * up to `WEBHOOK_TIMEOUT_MS` a receiver may take; run again after the process died before its row
 * completed, it finds the delivery as it left it (done: nothing to do; pending: one attempt more).
 */
export const webhookDueWork: Effect.Effect<DueWorkDeclarations, never, WebhookDeliveries> = Effect.map(
  WebhookDeliveries,
  (deliveries): DueWorkDeclarations => ({
    kinds: [{ kind: WEBHOOK_DELIVERY_KIND, run: deliveries.deliver, ownUnitsOfWork: true }],
    pumps: [{ name: "webhook outbox", run: deliveries.pump }]
  })
)
