import { Schema } from "effect"
import { ID_PREFIXES, Timestamp } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, NullableTimestamp } from "../../kernel/fields.ts"

/** The real API's `CustomerNotificationType`. */
export const CUSTOMER_NOTIFICATION_TYPES = [
  "payment_created", "payment_cancelled", "mandate_created", "mandate_blocked", "subscription_created",
  "subscription_cancelled", "instalment_schedule_created", "instalment_schedule_cancelled"
] as const

/**
 * A customer notification with the real API's fields: a notification to a customer that an
 * integrator who sends its own has taken on. `action_taken` is null until it is handled;
 * `created_at` is this engine's addition, and so is `deadline`: the real API names it on the
 * event's `customer_notifications` entry, and refuses handling from then on (`already_actioned`).
 */
export const CustomerNotification = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  type: Schema.Literals(CUSTOMER_NOTIFICATION_TYPES),
  action_taken: Schema.NullOr(Schema.Literals(["handled"])),
  action_taken_at: NullableTimestamp,
  action_taken_by: NullableString,
  deadline: Schema.optionalKey(Timestamp),
  links: Schema.Struct({
    customer: Schema.String,
    event: Schema.String,
    mandate: Schema.optionalKey(Schema.String),
    payment: Schema.optionalKey(Schema.String),
    refund: Schema.optionalKey(Schema.String),
    subscription: Schema.optionalKey(Schema.String)
  })
})
export type CustomerNotification = typeof CustomerNotification.Type

export const customerNotifications = defineResource({
  name: "customer_notifications",
  idPrefix: ID_PREFIXES.customer_notification,
  schema: CustomerNotification,
  filters: { created_at: (r: CustomerNotification) => r.created_at }
})
