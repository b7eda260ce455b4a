import { defineRoom, store } from "../registry/room.ts"
import { customerNotifications } from "./domain/customer-notifications.ts"
import { CustomerNotificationRepository } from "./repositories.ts"

/** The customer notifications' room. */
export const customerNotificationsRoom = defineRoom({
  stores: [store(CustomerNotificationRepository, customerNotifications)]
})
