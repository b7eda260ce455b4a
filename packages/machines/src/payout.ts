import { Schema } from "effect"
import { allOf, bindMachine, defineMachine, guard } from "./machine.ts"

/** Payout statuses, as the real API (`PayoutStatus`). */
export const PAYOUT_STATUSES = ["pending", "paid", "bounced"] as const
export const PayoutStatus = Schema.Literals(PAYOUT_STATUSES).annotate({ identifier: "PayoutStatus" })
export type PayoutStatus = typeof PayoutStatus.Type

export const PAYOUT_EVENTS = ["confirm_fx_rate", "pay", "bounce", "retry"] as const
export type PayoutEvent = (typeof PAYOUT_EVENTS)[number]

export interface PayoutContext {
  /** The payout is exchanged into another currency (`fx.fx_currency` is set). */
  readonly exchanged: boolean
  /** `fx_rate_confirmed` has been emitted for this payout. */
  readonly fx_rate_confirmed: boolean
}

// Spec: an exchanged payout becomes `paid` only after `fx_rate_confirmed` has been emitted.
const fxRateConfirmedIfExchanged = guard<PayoutContext>(
  "fx_rate_confirmed_if_exchanged",
  "fx_rate_not_confirmed",
  "The exchange rate of this payout has not been confirmed yet",
  (c) => !c.exchanged || c.fx_rate_confirmed
)

const confirmableRate = allOf<PayoutContext>("exchanged_and_unconfirmed", [
  guard("exchanged", "payout_not_exchanged", "This payout is not exchanged into another currency", (c) => c.exchanged),
  guard("unconfirmed", "fx_rate_already_confirmed", "The exchange rate of this payout is already confirmed", (c) =>
    !c.fx_rate_confirmed)
])

/**
 * pending -> paid (an exchanged payout only once its rate is confirmed), or bounced when sending
 * fails or when the creditor's bank returns a paid payout (so `paid` is not final); a bounced
 * payout can be retried, which makes it pending again. Emits the real API's
 * `fx_rate_confirmed`, `paid` and `bounced`; the spec names no event for a retry, `retried` is
 * this engine's own; the real API emits nothing on creation.
 */
export const payoutMachine = defineMachine<PayoutContext>()({
  name: "payouts",
  noun: "payout",
  states: PAYOUT_STATUSES,
  events: PAYOUT_EVENTS,
  initial: ["pending"],
  terminal: [],
  created: null,
  transitions: [
    {
      from: ["pending"], event: "confirm_fx_rate", to: "pending", guard: confirmableRate,
      emits: "fx_rate_confirmed", reason: "payout_not_pending"
    },
    {
      from: ["pending"], event: "pay", to: "paid", guard: fxRateConfirmedIfExchanged,
      emits: "paid", reason: "payout_not_pending"
    },
    { from: ["pending", "paid"], event: "bounce", to: "bounced", emits: "bounced", reason: "payout_not_pending" },
    { from: ["bounced"], event: "retry", to: "pending", emits: "retried", reason: "payout_not_bounced" }
  ]
})

export const payouts = bindMachine(payoutMachine)
