import { Schema } from "effect"
import { SUBSCRIPTION_STATUSES } from "@paykit/machines"
import { Amount, CURRENCIES, ID_PREFIXES, LocalDate, Metadata, SUBSCRIPTION_NAME_MAX_LENGTH, SUBSCRIPTION_STATUS_FILTER_MAX } from "@paykit/core"
import { INTERVAL_UNITS } from "@paykit/schedule"
import { PositiveAmount, stringUpTo } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"
import { MetadataUpdateRequest } from "@paykit/core"
import { CreatedAt, Id, Minor, NullableDate, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export const Subscription = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  currency: Schema.Literals(CURRENCIES),
  name: NullableString,
  start_date: NullableDate,
  end_date: NullableDate,
  count: Schema.NullOr(Schema.Int),
  interval: Schema.Int,
  interval_unit: Schema.Literals(INTERVAL_UNITS),
  day_of_month: Schema.NullOr(Schema.Int),
  month: NullableString,
  payment_reference: NullableString,
  app_fee: Schema.NullOr(Minor),
  retry_if_possible: Schema.Boolean,
  metadata: StoredMetadata,
  status: Schema.Literals(SUBSCRIPTION_STATUSES),
  upcoming_payments: Schema.Array(Schema.Struct({ charge_date: LocalDate, amount: Minor })),
  earliest_charge_date_after_resume: NullableDate,
  links: Schema.Struct({ mandate: Schema.String })
})
export type Subscription = typeof Subscription.Type

export const subscriptions = defineResource({
  name: "subscriptions",
  idPrefix: ID_PREFIXES.subscription,
  schema: Subscription,
  filters: {
    created_at: (r: Subscription) => r.created_at,
    status: (r: Subscription) => r.status,
    mandate: (r: Subscription) => r.links.mandate
  }
})

const Recurrence = Schema.Union([
  Schema.Struct({ unit: Schema.Literal("weekly"), anchor: Schema.Int, stepDays: Schema.Int }),
  Schema.Struct({ unit: Schema.Literals(["monthly", "yearly"]), anchor: Schema.Int, stepMonths: Schema.Int, day: Schema.Int })
])

const PauseState = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("active") }),
  Schema.Struct({ kind: Schema.Literal("paused_indefinitely"), pausedAt: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("paused_for_cycles"), pausedAt: Schema.Int, cycles: Schema.Int })
])

/** @paykit/schedule's `SubscriptionSchedule`, as stored. */
export const StoredSchedule = Schema.Struct({
  recurrence: Recurrence,
  fromIndex: Schema.Int,
  endIndex: Schema.NullOr(Schema.Int),
  endDay: Schema.NullOr(Schema.Int),
  pause: PauseState
})

/**
 * The engine's side record of a subscription (not an API resource): its schedule, which says
 * which occurrence is charged next. Keyed by the subscription's id.
 */
export const SubscriptionScheduleRecord = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  schedule: StoredSchedule,
  /**
   * The first day the daily run has something to do for the subscription (its next occurrence's
   * notice starts, `subscription-due.ts`); null while nothing can fall due (ended, or paused until
   * resumed). A change made through the API sets it to its day, so the next run looks. A record
   * from before this field existed has none: due from its creation, so the next run computes it.
   */
  due_on: Schema.optionalKey(Schema.NullOr(LocalDate))
})
export type SubscriptionScheduleRecord = typeof SubscriptionScheduleRecord.Type

export const subscriptionSchedules = defineResource({
  name: "subscription_schedules",
  idPrefix: ID_PREFIXES.subscription,
  schema: SubscriptionScheduleRecord,
  filters: {
    created_at: (r: SubscriptionScheduleRecord) => r.created_at,
    due_on: (r: SubscriptionScheduleRecord) => r.due_on === undefined ? r.created_at.slice(0, 10) : r.due_on
  }
})

/**
 * The bodies of POST /subscriptions and of its pause and resume actions are @paykit/schedule's,
 * which plans and moves the schedule they describe (its cross-field rules run in its planning).
 */
export {
  SubscriptionCreateRequest,
  SubscriptionPauseRequest,
  SubscriptionResumeRequest,
  SUBSCRIPTIONS_ROOT
} from "@paykit/schedule"

export const SubscriptionListParams = Schema.Struct({
  ...listFields("subscription"),
  mandate: idFilter("mandate"),
  customer: idFilter("customer"),
  status: Schema.optionalKey(
    Schema.Union([Schema.Literals(SUBSCRIPTION_STATUSES), Schema.Array(Schema.Literals(SUBSCRIPTION_STATUSES))]).check(
      Schema.makeFilter((s: string | ReadonlyArray<string>) => typeof s === "string" || s.length <= SUBSCRIPTION_STATUS_FILTER_MAX, {
        message: `must name at most ${SUBSCRIPTION_STATUS_FILTER_MAX} statuses`
      })
    )
  )
})
export type SubscriptionListParams = typeof SubscriptionListParams.Type

/** The fields the real API lets a subscription's update change. */
export const SubscriptionUpdateRequest = Schema.Struct({
  name: Schema.optionalKey(stringUpTo(SUBSCRIPTION_NAME_MAX_LENGTH)),
  amount: Schema.optionalKey(PositiveAmount),
  payment_reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  app_fee: Schema.optionalKey(Amount),
  retry_if_possible: Schema.optionalKey(Schema.Boolean)
})
export type SubscriptionUpdateRequest = typeof SubscriptionUpdateRequest.Type

/** The body of a subscription's cancellation: metadata only. */
export const SubscriptionCancelRequest = MetadataUpdateRequest
export type SubscriptionCancelRequest = typeof SubscriptionCancelRequest.Type
