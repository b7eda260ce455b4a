import { Effect } from "effect"
import { Creditors, Customers, decodeCommand, Events, Mandates, Payments, REQUEST_BODIES, Simulator } from "@paykit/engine"

export const ORG = "OR0000000000EX"
const DAY = 86_400_000
// Commands are Schema types (amounts and dates are branded): decode plain values into them.
const paymentCreate = decodeCommand(REQUEST_BODIES.payments.create, "payments")
const verificationCreate = decodeCommand(REQUEST_BODIES.verification_details.create, "verification_details")

/** A verified creditor with a payout account, a payer with a Bacs mandate, and a payment on it. */
export const setUpPayment = Effect.gen(function*() {
  const creditors = yield* Creditors
  const customers = yield* Customers
  const creditor = yield* creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
  // Payouts need a payout account and a verified creditor: without them payments stop at `confirmed`.
  yield* creditors.createBankAccount(ORG, {
    account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
    links: { creditor: creditor.id }
  })
  yield* creditors.createVerificationDetail(ORG, yield* verificationCreate({
    name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street", city: "London",
    postal_code: "E1 6AN", links: { creditor: creditor.id },
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }]
  }))
  const customer = yield* customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com", country_code: "GB" })
  const account = yield* customers.createBankAccount(ORG, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  })
  const mandate = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
  const payment = yield* (yield* Payments).create(ORG, yield* paymentCreate({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } }))
  return { creditor, account, mandate, payment }
})

export const program = Effect.gen(function*() {
  const { payment } = yield* setUpPayment
  // The sandbox's time machine: the daily runs of the next two weeks (review, submission, payout).
  yield* (yield* Simulator).advanceBy(14 * DAY)
  const events = yield* (yield* Events).list(ORG, { limit: 100 })
  for (const event of events.items.toReversed()) console.log(event.created_at, event.resource_type, event.action)
  return { payment: yield* (yield* Payments).get(ORG, payment.id), events: events.items }
})
