import type { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { resolveBankDetails } from "@paykit/validation"
import type { Customers } from "../customers/customers.ts"
import type { Mandates } from "../mandates/mandates.ts"
import { CustomerCreateRequest } from "../customers/domain/customers.ts"
import { CustomerBankAccountCreateRequest } from "../customers/domain/customer-bank-accounts.ts"
import { MandateCreateRequest } from "../mandates/domain/mandates.ts"
import { decodeCommand } from "../kernel/commands.ts"
import type { PayerAuthorisation } from "./domain/payer-authorisations.ts"

/**
 * A payer authorisation stores what the payer typed, unchecked (its `incomplete_fields` say what
 * is missing); the customer, bank account and mandate rules are applied when they are created,
 * so each is decoded here with its resource's own Schema under its own key, as the API would,
 * and a refusal fails the authorisation with the same field errors.
 */
const decodeCustomer = decodeCommand(CustomerCreateRequest, "customers")
const decodeBankAccount = decodeCommand(CustomerBankAccountCreateRequest, "customer_bank_accounts")
const decodeMandate = decodeCommand(MandateCreateRequest, "mandates")

const bankAccountOf = (b: PayerAuthorisation["bank_account"], customer: string) => {
  const resolution = resolveBankDetails(b, { rejectSekIban: true, checkCurrencyAndAccountType: true })
  const local = resolution.valid && resolution.account.iban !== null
    ? { iban: resolution.account.iban }
    : {
      ...(b.account_number === null ? {} : { account_number: b.account_number }),
      ...(b.branch_code === null ? {} : { branch_code: b.branch_code }),
      ...(b.bank_code === null ? {} : { bank_code: b.bank_code }),
      ...(b.account_number_suffix === null ? {} : { account_number_suffix: b.account_number_suffix }),
      ...(b.country_code === null ? {} : { country_code: b.country_code })
    }
  return {
    account_holder_name: b.account_holder_name ?? "",
    ...local,
    ...(b.currency === null ? {} : { currency: b.currency }),
    ...(b.account_type === null ? {} : { account_type: b.account_type }),
    metadata: b.metadata,
    links: { customer }
  }
}

/** Creates the payer's customer, bank account and mandate through the collections services. */
export const createPayerResources = (
  deps: { readonly customers: Customers["Service"]; readonly mandates: Mandates["Service"] },
  organisation: OrganisationId,
  pa: PayerAuthorisation
) =>
  Effect.gen(function*() {
    const { customer: c, mandate: m } = pa
    const customer = yield* deps.customers.create(organisation, yield* decodeCustomer({
      email: c.email, given_name: c.given_name, family_name: c.family_name, company_name: c.company_name,
      address_line1: c.address_line1, address_line2: c.address_line2, address_line3: c.address_line3, city: c.city,
      region: c.region, postal_code: c.postal_code, country_code: c.country_code, language: c.locale,
      swedish_identity_number: c.swedish_identity_number, danish_identity_number: c.danish_identity_number, metadata: c.metadata
    }))
    const account = yield* deps.customers.createBankAccount(organisation, yield* decodeBankAccount(bankAccountOf(pa.bank_account, customer.id)))
    const mandate = yield* deps.mandates.create(organisation, yield* decodeMandate({
      ...(m.scheme === null ? {} : { scheme: m.scheme }),
      ...(m.reference === null ? {} : { reference: m.reference }),
      ...(m.payer_ip_address === null ? {} : { payer_ip_address: m.payer_ip_address }),
      metadata: m.metadata,
      links: { customer_bank_account: account.id }
    }))
    const links: PayerAuthorisation["links"] = { customer: customer.id, bank_account: account.id, mandate: mandate.id }
    return links
  })
