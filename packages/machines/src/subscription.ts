import { Schema } from "effect"
import { SUBSCRIPTION_PAUSE_REASONS } from "@paykit/core"
import { allOf, bindMachine, defineMachine, type Guard, guard } from "./machine.ts"

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

/** Where a subscription's schedule stands with pauses (@paykit/schedule's `PauseState` kinds). */
export type SubscriptionPauseKind = "active" | "paused_for_cycles" | "paused_indefinitely"

/** The facts of the schedule a pause request is judged on (computed by @paykit/schedule). */
export interface SubscriptionPauseFacts {
  readonly has_end_date: boolean
  readonly pause_kind: SubscriptionPauseKind
  /** The `pause_cycles` asked for; null to pause until resumed. */
  readonly pause_cycles: number | null
  /** An occurrence not yet charged remains to pause at. */
  readonly has_occurrence_to_pause: boolean
  /** The fewest cycles that reach the scheme's earliest charge date after a pause. */
  readonly minimum_pause_cycles: number
}

export interface SubscriptionContext {
  /** The schedule (count, end_date) still has a payment to create. */
  readonly has_further_payments: boolean
  /** The facts of a pause request; null for every other event (a pause without them is refused). */
  readonly pause: SubscriptionPauseFacts | null
}

/** The real API's `invalid_state` reasons of the pause action: core's catalogue holds them, with their meaning for the docs page. */
export { SUBSCRIPTION_PAUSE_REASONS }

const pauseFact = (name: string, reason: string, message: string, holds: (facts: SubscriptionPauseFacts) => boolean) =>
  guard<SubscriptionContext>(name, reason, message, (c) => c.pause !== null && holds(c.pause))

const enoughPauseCycles: Guard<SubscriptionContext> = {
  name: "enough_pause_cycles",
  check: (c) => {
    const f = c.pause
    // A pause for cycles is judged on cycles only when not already paused for some (refused before).
    if (f === null || f.pause_cycles === null || f.pause_cycles >= f.minimum_pause_cycles) return undefined
    return {
      reason: SUBSCRIPTION_PAUSE_REASONS.cyclesTooFew,
      message: `pause_cycles must be greater than or equal to ${f.minimum_pause_cycles}`
    }
  }
}

/**
 * The real API's rules for pausing, in the order it checks them: only a subscription with a
 * count or one that runs forever; not one already paused until resumed; one paused for cycles
 * may then be paused indefinitely, not for other cycles; some payment must be left to pause;
 * and enough cycles to reach the earliest charge date after a pause.
 */
const pauseAllowed = allOf<SubscriptionContext>("pause_allowed", [
  pauseFact("pause_facts_known", "invalid_state", "A pause needs the facts of the subscription's schedule", () => true),
  pauseFact("no_end_date", SUBSCRIPTION_PAUSE_REASONS.cannotBePaused,
    "A subscription with an end_date cannot be paused: only one with a count or one that runs forever", (f) => !f.has_end_date),
  pauseFact("not_paused_indefinitely", SUBSCRIPTION_PAUSE_REASONS.cannotBePaused,
    "The subscription is already paused until it is resumed", (f) => f.pause_kind !== "paused_indefinitely"),
  pauseFact("cycles_unchanged", SUBSCRIPTION_PAUSE_REASONS.cannotUpdateCycles,
    "The subscription is already paused for a number of cycles, which cannot be changed",
    (f) => f.pause_kind !== "paused_for_cycles" || f.pause_cycles === null),
  pauseFact("occurrence_left", SUBSCRIPTION_PAUSE_REASONS.cannotBePaused,
    "Every payment of the subscription has been created already",
    (f) => f.pause_kind === "paused_for_cycles" || f.has_occurrence_to_pause),
  enoughPauseCycles
])

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
    {
      from: ["active"], event: "pause", to: "paused", guard: pauseAllowed,
      emits: "paused", reason: SUBSCRIPTION_PAUSE_REASONS.notActive
    },
    // One paused for cycles, now paused until resumed: it stays paused and the real API sends nothing.
    {
      from: ["paused"], event: "pause", to: "paused", guard: pauseAllowed,
      emits: null, reason: SUBSCRIPTION_PAUSE_REASONS.notActive
    },
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
