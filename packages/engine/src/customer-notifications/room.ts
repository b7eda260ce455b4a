import { defineRoom, store } from "../registry/room.ts"
import { customerNotifications } from "./domain/customer-notifications.ts"
import { CustomerNotificationRepository } from "./repositories.ts"
import { CustomerNotifications } from "./customer-notifications.ts"

/** The customer notifications' room. */
export const customerNotificationsRoom = defineRoom({
  stores: [store(CustomerNotificationRepository, customerNotifications)],
  services: CustomerNotifications.layer
})
