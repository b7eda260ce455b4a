import { Effect } from "effect"
import type { Metadata } from "@paykit/core"
import { type Cause, mandateMachine, paymentMachine, subscriptionMachine } from "@paykit/machines"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyTransition } from "../kernel/support.ts"
import type { Mandate } from "./domain/mandates.ts"
import type { Payment } from "./domain/payments.ts"
import { moveMandate } from "./mandate-rules.ts"
import type { LastUseDeps } from "./mandate-last-use.ts"
import { movePayment } from "./payment-rules.ts"
import type { MandateRepository, SubscriptionRepository } from "./repositories.ts"
import { subscriptionLinks, UNGUARDED } from "./subscription-rules.ts"

/** The states a machine's table lets `event` leave: read from the table, so the two never disagree. */
const statesAccepting = <S extends string, E extends string>(machine: { readonly transitions: ReadonlyArray<{ readonly event: E; readonly from: ReadonlyArray<S> }> }, event: E): ReadonlyArray<S> =>
  [...new Set(machine.transitions.filter((rule) => rule.event === event).flatMap((rule) => rule.from))]

/** Mandates that can still be cancelled (the mandate machine's `cancel` sources). */
export const CANCELLABLE_MANDATE_STATUSES: ReadonlyArray<Mandate["status"]> = statesAccepting(mandateMachine, "cancel")
/** Payments not yet submitted, which a cancelled mandate takes with it (the payment machine's `cancel` sources). */
export const CANCELLABLE_PAYMENT_STATUSES: ReadonlyArray<Payment["status"]> = statesAccepting(paymentMachine, "cancel")
/** Subscriptions that end with their mandate (the subscription machine's `cancel` sources). */
const CANCELLABLE_SUBSCRIPTION_STATUSES = statesAccepting(subscriptionMachine, "cancel")

export interface MandateCancelDeps extends LastUseDeps {
  readonly mandates: MandateRepository["Service"]
  readonly subscriptions: SubscriptionRepository["Service"]
}

/**
 * A mandate cancelled, and with it every payment of it not yet submitted and every subscription
 * on it still live, each through its machine with its own event, in the caller's unit of work.
 * The real API does this at once (they are `cancelled` with the cause `mandate_cancelled`); the
 * daily run's cancellation at submission stays for mandates that end otherwise (failed, expired).
 * The body's metadata goes on the mandate's cancellation event, as the real API keeps it.
 */
export const cancelMandateWithPayments = (deps: MandateCancelDeps, organisation: string, current: Versioned<Mandate>, cause: Cause, eventMetadata?: Metadata) =>
  Effect.gen(function*() {
    const cancelled = yield* moveMandate(deps.mandates, organisation, current, "cancel", cause, undefined, eventMetadata)
    const waiting = yield* deps.payments.scan(organisation, { mandate: eq(cancelled.id), status: oneOf(CANCELLABLE_PAYMENT_STATUSES) })
    const paymentCause: Cause = { origin: cause.origin, cause: "mandate_cancelled", description: "The mandate for this payment was cancelled." }
    for (const payment of waiting) yield* movePayment(deps, organisation, payment, "cancel", paymentCause)
    const live = yield* deps.subscriptions.scan(organisation, { mandate: eq(cancelled.id), status: oneOf(CANCELLABLE_SUBSCRIPTION_STATUSES) })
    for (const subscription of live) {
      yield* applyTransition(deps.subscriptions, {
        organisation,
        machine: subscriptionMachine,
        current: subscription,
        event: "cancel",
        context: UNGUARDED,
        cause: { ...paymentCause, description: "The mandate for this subscription was cancelled." },
        links: subscriptionLinks(subscription.resource, cancelled)
      })
    }
    return cancelled
  })

/** Every mandate of a bank account that can still be cancelled, cancelled with its payments (a disabled account). */
export const cancelMandatesOfAccount = (deps: MandateCancelDeps, organisation: string, account: string, cause: Cause) =>
  Effect.gen(function*() {
    const open = yield* deps.mandates.scan(organisation, { customer_bank_account: eq(account), status: oneOf(CANCELLABLE_MANDATE_STATUSES) })
    for (const mandate of open) yield* cancelMandateWithPayments(deps, organisation, mandate, cause)
  })
