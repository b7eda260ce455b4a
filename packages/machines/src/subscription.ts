import { Schema } from "effect"
import { bindMachine, defineMachine, guard } from "./machine.ts"

/** Subscription statuses, as the real API (`SubscriptionStatus`). */
export const SUBSCRIPTION_STATUSES = [
  "pending_customer_approval", "customer_approval_denied", "active", "finished", "cancelled", "paused"
] as const
export const SubscriptionStatus = Schema.Literals(SUBSCRIPTION_STATUSES).annotate({ identifier: "SubscriptionStatus" })
export type SubscriptionStatus = typeof SubscriptionStatus.Type

export const SUBSCRIPTION_EVENTS = [
  "customer_approval_granted", "customer_approval_denied", "create_payment", "amend", "pause", "resume", "cancel",
  "finish"
] as const
export type SubscriptionEvent = (typeof SUBSCRIPTION_EVENTS)[number]

export interface SubscriptionContext {
  /** The schedule (count, end_date) still has a payment to create. */
  readonly has_further_payments: boolean
}

const furtherPayments = guard<SubscriptionContext>(
  "has_further_payments",
  "subscription_schedule_finished",
  "Every payment of this subscription's schedule has been created",
  (c) => c.has_further_payments
)
const noFurtherPayments = guard<SubscriptionContext>(
  "no_further_payments",
  "subscription_schedule_not_finished",
  "This subscription's schedule still has payments to create",
  (c) => !c.has_further_payments
)

/**
 * Created `active` (or awaiting the customer's approval); active charges (payment_created) and
 * can be amended, paused and resumed; finishes once every scheduled payment exists; cancelled
 * at any point before that. Emits the real API's subscription actions.
 */
export const subscriptionMachine = defineMachine<SubscriptionContext>()({
  name: "subscriptions",
  noun: "subscription",
  states: SUBSCRIPTION_STATUSES,
  events: SUBSCRIPTION_EVENTS,
  initial: ["active", "pending_customer_approval"],
  terminal: ["customer_approval_denied", "finished", "cancelled"],
  created: "created",
  transitions: [
    {
      from: ["pending_customer_approval"], event: "customer_approval_granted", to: "active",
      emits: "customer_approval_granted", reason: "subscription_not_pending_customer_approval"
    },
    {
      from: ["pending_customer_approval"], event: "customer_approval_denied", to: "customer_approval_denied",
      emits: "customer_approval_denied", reason: "subscription_not_pending_customer_approval"
    },
    {
      from: ["active"], event: "create_payment", to: "active", guard: furtherPayments,
      emits: "payment_created", reason: "subscription_not_active"
    },
    { from: ["active"], event: "amend", to: "active", emits: "amended", reason: "subscription_not_active" },
    { from: ["active"], event: "pause", to: "paused", emits: "paused", reason: "subscription_not_active" },
    { from: ["paused"], event: "resume", to: "active", emits: "resumed", reason: "subscription_not_paused" },
    {
      from: ["pending_customer_approval", "active", "paused"], event: "cancel", to: "cancelled",
      emits: "cancelled", reason: "cancellation_failed"
    },
    {
      from: ["active", "paused"], event: "finish", to: "finished", guard: noFurtherPayments,
      emits: "finished", reason: "subscription_not_active"
    }
  ]
})

export const subscriptions = bindMachine(subscriptionMachine)
