import { OrganisationId } from "@paykit/core"
import { Effect, Layer } from "effect"
import type { CountryCode } from "@paykit/core"
import { TestClock } from "effect/testing"
import { Creditors, Customers, decodeCommand, inMemoryEngine, Mandates, REQUEST_BODIES, SubscriptionListParams } from "@paykit/engine"
import { setUpPayer as setUpPayerWith } from "@paykit/engine/testing"

export const ORG = OrganisationId("OR0000000000AA")
export const OTHER_ORG = OrganisationId("OR0000000000BB")

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
export const setUpPayer = (organisation: OrganisationId, accountHolderName = "Ada Lovelace") => setUpPayerWith(organisation, { accountHolderName })

/** An account's details as a country's payer gives them: an IBAN, a UK sort code, a US routing number. */
type AccountDetails = { readonly iban: string } | { readonly account_number: string; readonly branch_code?: string; readonly bank_code?: string; readonly account_type?: "checking" | "savings" }

/**
 * A creditor of `country`, a customer there named `name` with `account`, and a mandate on the
 * scheme the account's country collects on (ACH's web authorisation given the payer's address).
 */
export const setUpPayerIn = (organisation: OrganisationId, country: CountryCode, account: AccountDetails, name = { given_name: "Erika", family_name: "Mustermann" }) =>
  Effect.gen(function*() {
    const creditor = yield* (yield* Creditors).create(organisation, { name: "Acme", country_code: country, creditor_type: "company" })
    const customers = yield* Customers
    const customer = yield* customers.create(organisation, { ...name, country_code: country })
    const bankAccount = yield* customers.createBankAccount(organisation, { account_holder_name: `${name.given_name} ${name.family_name}`, country_code: country, ...account, links: { customer: customer.id } })
    const mandate = yield* (yield* Mandates).create(organisation, { ...(country === "US" ? { payer_ip_address: "203.0.113.9" } : {}), links: { customer_bank_account: bankAccount.id, creditor: creditor.id } })
    return { creditor, customer, account: bankAccount, mandate }
  })

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
