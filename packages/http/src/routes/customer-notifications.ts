import { Effect } from "effect"
import { CustomerNotification, CustomerNotifications } from "@paykit/engine"
import { bodilessActionEndpoint, type EndpointDeclaration } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Customer notifications: one marked handled (`handle`), the integrator sending the payer its notice itself. */

const services = Effect.gen(function*() {
  return { customerNotifications: yield* CustomerNotifications }
})

const CN = "customer_notifications"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  bodilessActionEndpoint("handle", CN, CustomerNotification, (s) => s.customerNotifications.handle)
]

export const customerNotificationsRoom = routeRoom([CN], services, declarations)
