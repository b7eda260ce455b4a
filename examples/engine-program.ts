import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { Paykit, Simulator } from "@paykit/engine"

export const ORG = OrganisationId("OR0000000000EX")
const DAY = 86_400_000

/** A verified creditor with a payout account, a payer with a Bacs mandate, and a payment on it. */
export const setUpPayment = Effect.gen(function*() {
  const paykit = yield* Paykit
  const creditor = yield* paykit.creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
  // Payouts need a payout account and a verified creditor: without them payments stop at `confirmed`.
  yield* paykit.creditors.createBankAccount(ORG, {
    account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
    links: { creditor: creditor.id }
  })
  yield* paykit.creditors.createVerificationDetail(ORG, {
    name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street", city: "London",
    postal_code: "E1 6AN", links: { creditor: creditor.id },
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }]
  })
  const customer = yield* paykit.customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com", country_code: "GB" })
  const account = yield* paykit.customers.createBankAccount(ORG, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  })
  const mandate = yield* paykit.mandates.create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
  const payment = yield* paykit.payments.create(ORG, { amount: 1500, currency: "GBP", links: { mandate: mandate.id } })
  return { creditor, account, mandate, payment }
})

export const program = Effect.gen(function*() {
  const paykit = yield* Paykit
  const { payment } = yield* setUpPayment
  // The sandbox's time machine: the daily runs of the next two weeks (review, submission, payout).
  yield* (yield* Simulator).advanceBy(14 * DAY)
  const events = yield* paykit.events.list(ORG, { limit: 100 })
  for (const event of events.items.toReversed()) console.log(event.created_at, event.resource_type, event.action)
  return { payment: yield* paykit.payments.get(ORG, payment.id), events: events.items }
})
