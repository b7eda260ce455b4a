import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  BankAuthorisations,
  BillingRequests,
  Creditors,
  Institutions,
  NegativeBalanceLimits,
  TaxRates,
  PayerAuthorisations,
  inMemoryEngine
} from "@paykit/engine"
import type { InstitutionRecord } from "@paykit/engine"

export const ORG = "OR0000000000AA"

/** Monday 23 November 2026, 09:00 UTC. */
export const START = Date.UTC(2026, 10, 23, 9, 0, 0)

/**
 * The whole in-memory engine with the billing services built on it here, so a test can give
 * its own institutions dataset. `Layer.fresh` keeps them from being shared with (memoised as)
 * any the engine builds itself.
 */
export const billingLayer = (seed = 1, institutions?: ReadonlyArray<InstitutionRecord>) => {
  const engine = inMemoryEngine({ seed })
  const billing = Layer.mergeAll(Layer.fresh(BankAuthorisations.layer), Layer.fresh(PayerAuthorisations.layer)).pipe(
    Layer.provideMerge(Layer.fresh(BillingRequests.layer)),
    Layer.provideMerge(Layer.mergeAll(
      institutions === undefined ? Institutions.layer : Institutions.layerWith(institutions),
      TaxRates.layer,
      NegativeBalanceLimits.layer
    )),
    Layer.provide(engine)
  )
  return Layer.merge(engine, billing).pipe(Layer.provideMerge(TestClock.layer()))
}

export type BillingServices = Layer.Success<ReturnType<typeof billingLayer>>

export const runBilling = <A, E>(program: Effect.Effect<A, E, BillingServices>, seed = 1, institutions?: ReadonlyArray<InstitutionRecord>): Promise<A> =>
  Effect.runPromise(Effect.provide(Effect.flatMap(TestClock.setTime(START), () => program), billingLayer(seed, institutions)))

/** A GB creditor (the organisation's only one), as billing requests need. */
export const setUpCreditor = Effect.gen(function*() {
  const creditors = yield* Creditors
  return yield* creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
})

export const UK_ACCOUNT = { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" }

export const ADA = {
  customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
  customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
}
