import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { expect, it } from "vitest"
import { OrganisationId } from "@paykit/core"
import { Paykit, Simulator, inMemoryEngine } from "@paykit/engine"

// The README's example, verbatim, so the README cannot drift from the engine.
const org = OrganisationId("OR0000000000AA")

const program = Effect.gen(function*() {
  yield* TestClock.setTime(Date.UTC(2026, 10, 23, 9))
  const paykit = yield* Paykit
  const creditor = yield* paykit.creditors.create(org, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
  yield* paykit.creditors.createBankAccount(org, {
    account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000",
    country_code: "GB", currency: "GBP", links: { creditor: creditor.id }
  })
  yield* paykit.creditors.createVerificationDetail(org, {
    name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street",
    city: "London", postal_code: "E1 6AN", links: { creditor: creditor.id },
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street",
      city: "London", postal_code: "E1 6AN", country_code: "GB" }]
  })
  const customer = yield* paykit.customers.create(org, { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com" })
  const account = yield* paykit.customers.createBankAccount(org, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000",
    country_code: "GB", links: { customer: customer.id }
  })
  const mandate = yield* paykit.mandates.create(org, { links: { customer_bank_account: account.id } })
  const subscription = yield* paykit.subscriptions.create(org, {
    amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, links: { mandate: mandate.id }
  })
  yield* (yield* Simulator).advanceBy(90 * 86_400_000)
  const payments = yield* paykit.payments.list(org, { subscription: subscription.id })
  const payouts = yield* paykit.payouts.list(org, {})
  return { payments: payments.items.map((p) => [p.charge_date, p.status]), payouts: payouts.items.map((p) => p.amount) }
})

it("runs the README example", async () => {
  const result = await Effect.runPromise(
    Effect.provide(program, Layer.mergeAll(inMemoryEngine({ seed: 42 }), TestClock.layer()))
  )
  expect(result.payments).toEqual([["2027-02-01", "paid_out"], ["2027-01-04", "paid_out"], ["2026-12-01", "paid_out"]])
  expect(result.payouts).toEqual([1458, 1458, 1458])
})
