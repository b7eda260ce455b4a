import { Context, Effect, Layer } from "effect"
import { InvalidState, type NotFound, now, type OrganisationId, type StorageError, timestampToMillis } from "@paykit/core"
import { save } from "../kernel/support.ts"
import { CustomerNotificationRepository } from "./repositories.ts"
import type { CustomerNotification } from "./domain/customer-notifications.ts"

/**
 * Marks a notification handled by the integrator. As the real API does, one already handled, or
 * whose deadline has passed (GoCardless has sent it itself), answers 422 `already_actioned`.
 */
const handle = (notifications: CustomerNotificationRepository["Service"], organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* notifications.get(organisation, id)
    const at = yield* now
    const { action_taken, deadline } = current.resource
    if (action_taken !== null || (deadline !== undefined && timestampToMillis(at) >= timestampToMillis(deadline))) {
      return yield* new InvalidState({ reason: "already_actioned", message: "This notification has already been actioned, or its deadline has passed" })
    }
    const next: CustomerNotification = { ...current.resource, action_taken: "handled", action_taken_at: at, action_taken_by: organisation }
    yield* save(notifications, organisation, current, next)
    return next
  })

export class CustomerNotifications extends Context.Service<CustomerNotifications, {
  readonly handle: (organisation: OrganisationId, id: string) => Effect.Effect<CustomerNotification, NotFound | InvalidState | StorageError>
}>()("@paykit/engine/CustomerNotifications") {
  static readonly layer: Layer.Layer<CustomerNotifications, never, CustomerNotificationRepository> = Layer.effect(
    CustomerNotifications,
    Effect.map(CustomerNotificationRepository, (notifications) => CustomerNotifications.of({ handle: (o, id) => handle(notifications, o, id) }))
  )
}
