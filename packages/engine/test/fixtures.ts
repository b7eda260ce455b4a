import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { decodeCommand, inMemoryEngine, REQUEST_BODIES, SubscriptionListParams } from "@paykit/engine"
import { setUpPayer as setUpPayerWith } from "@paykit/engine/testing"

export const ORG = "OR0000000000AA"
export const OTHER_ORG = "OR0000000000BB"

/** Monday 23 November 2026, 09:00 UTC. */
export const START = Date.UTC(2026, 10, 23, 9, 0, 0)

export const testLayer = (seed = 1) => Layer.mergeAll(inMemoryEngine({ seed }), TestClock.layer())

/** Runs an engine program on a fresh in-memory engine with the test clock at `START`. */
export type TestServices = Layer.Success<ReturnType<typeof testLayer>>

export const runEngine = <A, E>(program: Effect.Effect<A, E, TestServices>, seed = 1): Promise<A> =>
  Effect.runPromise(
    Effect.provide(Effect.flatMap(TestClock.setTime(START), () => program), testLayer(seed))
  )

/** A creditor, a customer with a UK account and a Bacs mandate (the engine's `setUpPayer`). */
export const setUpPayer = (organisation: string, accountHolderName = "Ada Lovelace") => setUpPayerWith(organisation, { accountHolderName })

/**
 * Raw request bodies (and list queries) decoded at the edge, as the HTTP layer decodes them, into
 * the typed commands the collections' operations take (`decodeCommand` with the `REQUEST_BODIES`
 * or list-params Schema and the resource's root).
 */
export const edge = {
  customer: decodeCommand(REQUEST_BODIES.customers.create, "customers"),
  payment: decodeCommand(REQUEST_BODIES.payments.create, "payments"),
  paymentRetry: decodeCommand(REQUEST_BODIES.payments.retry, "payments"),
  refund: decodeCommand(REQUEST_BODIES.refunds.create, "refunds"),
  subscription: decodeCommand(REQUEST_BODIES.subscriptions.create, "subscriptions"),
  instalmentsWithDates: decodeCommand(REQUEST_BODIES.instalment_schedules.create_with_dates, "instalment_schedules"),
  subscriptionUpdate: decodeCommand(REQUEST_BODIES.subscriptions.update, "subscriptions"),
  subscriptionList: decodeCommand(SubscriptionListParams, "subscriptions")
}
