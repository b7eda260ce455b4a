import { Context, Effect, Layer } from "effect"
import { NotFound, now } from "@paykit/core"
import type { InvalidState } from "@paykit/core"
import { save } from "../kernel/support.ts"
import { CustomerNotificationRepository } from "./repositories.ts"
import type { CustomerNotification } from "./domain/customer-notifications.ts"

const ROOT = "customer_notifications"

/**
 * Marks a notification handled by the integrator. As the real API says of its notifications, one
 * that has been actioned is no longer visible: handling it again answers 404.
 */
const handle = (notifications: CustomerNotificationRepository["Service"], organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* notifications.get(organisation, id)
    if (current.resource.action_taken !== null) return yield* new NotFound({ resource: ROOT, id })
    const next: CustomerNotification = { ...current.resource, action_taken: "handled", action_taken_at: yield* now, action_taken_by: organisation }
    yield* save(notifications, organisation, current, next)
    return next
  })

export class CustomerNotifications extends Context.Service<CustomerNotifications, {
  readonly handle: (organisation: string, id: string) => Effect.Effect<CustomerNotification, NotFound | InvalidState>
}>()("@paykit/engine/CustomerNotifications") {
  static readonly layer: Layer.Layer<CustomerNotifications, never, CustomerNotificationRepository> = Layer.effect(
    CustomerNotifications,
    Effect.map(CustomerNotificationRepository, (notifications) => CustomerNotifications.of({ handle: (o, id) => handle(notifications, o, id) }))
  )
}
