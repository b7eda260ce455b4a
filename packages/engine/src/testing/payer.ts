import { unsafeLocalDate, type OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { Creditors } from "../creditors/creditors.ts"
import { Customers } from "../customers/customers.ts"
import { Mandates } from "../mandates/mandates.ts"

/**
 * A creditor with a GBP payout account, a customer with a UK bank account and a Bacs mandate on
 * it: the starting point of most engine scenarios, for this package's tests and for adapters that
 * run the engine end to end on their storage.
 */
export interface PayerOptions {
  /** The payer's account holder name (the sandbox bank reads scenario names from it). */
  readonly accountHolderName?: string
  /** Submits the creditor's verification details, so the simulator's review can make it `successful` and pay it out. */
  readonly verifyCreditor?: boolean
  /** Names the creditor on the mandate (the organisation has one creditor, so the engine would find it). */
  readonly linkCreditor?: boolean
}

export const setUpPayer = (organisation: OrganisationId, options: PayerOptions = {}) =>
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
    if (options.verifyCreditor === true) {
      yield* creditors.createVerificationDetail(organisation, {
        name: "Acme Gym Ltd",
        company_number: "01234567",
        description: "Gyms",
        address_line1: "1 High Street",
        city: "London",
        postal_code: "E1 6AN",
        directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: unsafeLocalDate("1970-01-01"), street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
        links: { creditor: creditor.id }
      })
    }
    const customer = yield* customers.create(organisation, { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com", country_code: "GB" })
    const account = yield* customers.createBankAccount(organisation, {
      account_holder_name: options.accountHolderName ?? "Ada Lovelace",
      account_number: "55779911",
      branch_code: "200000",
      country_code: "GB",
      links: { customer: customer.id }
    })
    const mandate = yield* mandates.create(organisation, {
      links: options.linkCreditor === false ? { customer_bank_account: account.id } : { customer_bank_account: account.id, creditor: creditor.id }
    })
    return { creditor, customer, account, mandate }
  })
