import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Creditors, Customers, Mandates, inMemoryEngine } from "@paykit/engine"

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

export const setUpPayer = (organisation: string, accountHolderName = "Ada Lovelace") =>
  Effect.gen(function*() {
    const creditors = yield* Creditors
    const customers = yield* Customers
    const mandates = yield* Mandates
    const creditor = yield* creditors.create(organisation, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
    yield* creditors.createBankAccount(organisation, {
      account_holder_name: "Acme Gym Ltd",
      account_number: "55779911",
      branch_code: "200000",
      country_code: "GB",
      currency: "GBP",
      links: { creditor: creditor.id }
    })
    const customer = yield* customers.create(organisation, { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com", country_code: "GB" })
    const account = yield* customers.createBankAccount(organisation, {
      account_holder_name: accountHolderName,
      account_number: "55779911",
      branch_code: "200000",
      country_code: "GB",
      links: { customer: customer.id }
    })
    const mandate = yield* mandates.create(organisation, { links: { customer_bank_account: account.id, creditor: creditor.id } })
    return { creditor, customer, account, mandate }
  })
