import { Schema } from "effect"
import { CountryCode, Currency, fieldError, ID_PREFIXES, IdOf, invalidField, Metadata, validationFailed, type ValidationFailed } from "@paykit/core"
import { Name, optionalNullable, resolveBankDetails, type ResolvedBankAccount } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredMetadata } from "../../kernel/fields.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"
import { MetadataUpdateRequest } from "@paykit/core"

export const PAYER_NAME_VERIFICATION_RESULTS = ["full", "close", "cannot_perform_verification"] as const

export const CustomerBankAccount = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  account_holder_name: Schema.String,
  account_number_ending: Schema.String,
  account_type: Schema.NullOr(Schema.Literals(["savings", "checking"])),
  bank_account_token: NullableString,
  bank_name: NullableString,
  country_code: NullableString,
  currency: NullableString,
  enabled: Schema.Boolean,
  payer_name_verification_result: Schema.NullOr(Schema.Literals(PAYER_NAME_VERIFICATION_RESULTS)),
  trusted_recipient: Schema.Boolean,
  metadata: StoredMetadata,
  links: Schema.Struct({ customer: Schema.String })
})
export type CustomerBankAccount = typeof CustomerBankAccount.Type

/**
 * A removed customer's bank account: the holder's name and the metadata erased (the type keeps the
 * name a string, so it becomes empty); the number's ending, bank and currency, which name no one, kept.
 */
export const erasedCustomerBankAccount = (a: CustomerBankAccount): CustomerBankAccount => ({ ...a, account_holder_name: "", metadata: {} })

/** The `currency_customer` value of an account: its currency, then its customer's id. */
export const currencyCustomer = (currency: string, customer: string): string => `${currency} ${customer}`

export const customerBankAccounts = defineResource({
  name: "customer_bank_accounts",
  idPrefix: ID_PREFIXES.customer_bank_account,
  schema: CustomerBankAccount,
  filters: {
    created_at: (r: CustomerBankAccount) => r.created_at,
    customer: (r: CustomerBankAccount) => r.links.customer,
    enabled: (r: CustomerBankAccount) => String(r.enabled),
    // The customers list by currency (`/customers?currency=`) reads the accounts of a currency in
    // their customers' order: the currency, a space, the customer's id.
    currency_customer: (r: CustomerBankAccount) => r.currency === null ? null : currencyCustomer(r.currency, r.links.customer)
  }
})

/** The API resource key of customer bank accounts: the root of their requests' field errors. */
export const BANK_ACCOUNTS_ROOT = "customer_bank_accounts"

export const BankDetailsFields = {
  account_holder_name: Name,
  account_number: Schema.optionalKey(Schema.String),
  branch_code: Schema.optionalKey(Schema.String),
  bank_code: Schema.optionalKey(Schema.String),
  iban: Schema.optionalKey(Schema.String),
  country_code: Schema.optionalKey(CountryCode),
  currency: Schema.optionalKey(Currency),
  account_type: optionalNullable(Schema.Literals(["savings", "checking"])),
  account_number_suffix: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata)
} as const
export const BankDetails = Schema.Struct(BankDetailsFields)
export type BankDetails = typeof BankDetails.Type

export const CustomerBankAccountCreateRequest = Schema.Struct({
  ...BankDetailsFields,
  links: Schema.Struct({ customer: IdOf("customer") })
})
export type CustomerBankAccountCreateRequest = typeof CustomerBankAccountCreateRequest.Type

/** `PUT /customer_bank_accounts/:id`: only metadata changes. */
export const CustomerBankAccountUpdateRequest = MetadataUpdateRequest
export type CustomerBankAccountUpdateRequest = typeof CustomerBankAccountUpdateRequest.Type

export const CustomerBankAccountListParams = Schema.Struct({
  ...listFields("customer_bank_account"),
  customer: idFilter("customer"),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})
export type CustomerBankAccountListParams = typeof CustomerBankAccountListParams.Type

export interface ResolvedCustomerBankAccount extends ResolvedBankAccount {
  readonly currency: Currency
}

/**
 * The one check of a customer's bank details, used by every path that creates an account (the
 * API, billing requests' collect_bank_account, payer authorisations): @paykit/validation's bank
 * details rules (IBAN and BIC through ibantools, UK sort code and Vocalink modulus checks, ABA,
 * BSB, NZ, CA and the other local formats, `account_type` for USD only, no SEK IBAN since
 * Autogiro needs local details) and the currency of the account's country. Resolves the
 * country, currency, number ending (4 digits for NZD, else 2) and the debit schemes the account
 * can be collected on.
 */
export const checkCustomerBankDetails = (root: string, d: BankDetails): ResolvedCustomerBankAccount | ValidationFailed => {
  const resolution = resolveBankDetails(d, { rejectSekIban: true, checkCurrencyAndAccountType: true })
  if (!resolution.valid) return validationFailed(resolution.issues.map((i) => fieldError(root, i.path, i.message)))
  const { account } = resolution
  if (account.currency === null) return invalidField(root, ["country_code"], `has no supported currency (${account.country_code})`)
  return { ...account, currency: account.currency }
}
