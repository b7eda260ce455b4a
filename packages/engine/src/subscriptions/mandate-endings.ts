import { Effect, Layer } from "effect"
import { type Cause, paymentMachine, subscriptionMachine } from "@paykit/machines"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { Payment } from "../payments/domain/payments.ts"
import { movePayment } from "../payments/payment-rules.ts"
import { InstalmentScheduleCheckRepository, PaymentRepository } from "../payments/repositories.ts"
import { MandateEndings, statesAccepting } from "../mandates/mandate-cancel.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import { MandateDormancyRepository } from "../mandates/repositories.ts"
import { applyTransition } from "../kernel/support.ts"
import { SubscriptionRepository } from "./repositories.ts"
import { subscriptionLinks, UNGUARDED } from "./subscription-rules.ts"

/** Payments not yet submitted, which a cancelled mandate takes with it (the payment machine's `cancel` sources). */
const CANCELLABLE_PAYMENT_STATUSES: ReadonlyArray<Payment["status"]> = statesAccepting(paymentMachine, "cancel")
/** Subscriptions that end with their mandate (the subscription machine's `cancel` sources). */
const CANCELLABLE_SUBSCRIPTION_STATUSES = statesAccepting(subscriptionMachine, "cancel")

/**
 * The mandates' port implemented here, the room that knows both payments and subscriptions: a
 * cancelled mandate's payments not yet submitted and its live subscriptions are cancelled, each
 * through its machine with its own event.
 */
export const MandateEndingsLive: Layer.Layer<
  MandateEndings,
  never,
  PaymentRepository | MandateDormancyRepository | InstalmentScheduleCheckRepository | SubscriptionRepository
> = Layer.effect(
  MandateEndings,
  Effect.gen(function*() {
    const deps = {
      payments: yield* PaymentRepository,
      dormancy: yield* MandateDormancyRepository,
      scheduleChecks: yield* InstalmentScheduleCheckRepository,
      subscriptions: yield* SubscriptionRepository
    }
    const cancelled = (organisation: string, mandate: Mandate, cause: Cause) =>
      Effect.gen(function*() {
        const waiting = yield* deps.payments.scan(organisation, { mandate: eq(mandate.id), status: oneOf(CANCELLABLE_PAYMENT_STATUSES) })
        for (const payment of waiting) yield* movePayment(deps, organisation, payment, "cancel", cause)
        const live = yield* deps.subscriptions.scan(organisation, { mandate: eq(mandate.id), status: oneOf(CANCELLABLE_SUBSCRIPTION_STATUSES) })
        for (const subscription of live) {
          yield* applyTransition(deps.subscriptions, {
            organisation,
            machine: subscriptionMachine,
            current: subscription,
            event: "cancel",
            context: UNGUARDED,
            cause: { ...cause, description: "The mandate for this subscription was cancelled." },
            links: subscriptionLinks(subscription.resource, mandate)
          })
        }
      })
    return MandateEndings.of({ cancelled })
  })
)
