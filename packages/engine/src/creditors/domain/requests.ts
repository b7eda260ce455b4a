import { Schema } from "effect"
import { CountryCode, CURRENCIES, Currency, DESCRIPTION_MAX_LENGTH, IdOf, InputDate, Metadata } from "@paykit/core"
import { BankReferencePrefix } from "@paykit/money"
import { CREDITOR_TYPES, Name, NonBlankString, nonBlankUpTo, optionalNullable } from "@paykit/validation"
import { AddressRequestFields } from "../../kernel/address-request.ts"
import { idFilter, ListParams, listFields, pageFields } from "../../kernel/list-params.ts"
import { type PayoutLinkKey, payoutLinkKey } from "./creditors.ts"

/** The API resource keys of the creditors feature's requests: the roots of their field errors. */
export const CREDITORS_ROOT = "creditors"
export const CREDITOR_BANK_ACCOUNTS_ROOT = "creditor_bank_accounts"
export const VERIFICATION_DETAILS_ROOT = "verification_details"

// `bank_reference_prefix` is checked by the rule payouts decode it with: nothing accepted here fails there.
export const CreditorCreateRequest = Schema.Struct({
  name: Name,
  country_code: CountryCode,
  creditor_type: Schema.Literals(CREDITOR_TYPES),
  bank_reference_prefix: Schema.optionalKey(BankReferencePrefix),
  fx_payout_currency: optionalNullable(Currency),
  ...AddressRequestFields,
  links: Schema.optionalKey(Schema.Struct({}))
})
export type CreditorCreateCommand = typeof CreditorCreateRequest.Type

const PayoutAccountId = IdOf("creditor_bank_account")

/** One optional link per currency, naming the creditor's new default payout account in it. */
const payoutAccountLinks = Object.fromEntries(
  CURRENCIES.map((currency) => [payoutLinkKey(currency), Schema.optionalKey(PayoutAccountId)])
) as { readonly [K in PayoutLinkKey]: Schema.optionalKey<typeof PayoutAccountId> }

export const CreditorUpdateRequest = Schema.Struct({
  name: Schema.optionalKey(Name),
  bank_reference_prefix: Schema.optionalKey(BankReferencePrefix),
  ...AddressRequestFields,
  /** Documented by GoCardless; a creditor's country is fixed here, so it is taken and not acted on (docs/http.md). */
  country_code: Schema.optionalKey(CountryCode),
  links: Schema.optionalKey(Schema.Struct(payoutAccountLinks))
})
export type CreditorUpdateCommand = typeof CreditorUpdateRequest.Type

/** `GET /creditors` parameters: pagination and `created_at`. */
export const CreditorListParams = ListParams
export type CreditorListParams = typeof CreditorListParams.Type

const AccountNumber = Schema.String.check(Schema.makeFilter((s: string) => /^\d{6,17}$/.test(s), { message: "must be 6 to 17 digits" }))
const Iban = Schema.String.check(
  Schema.makeFilter((s: string) => /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(s.replace(/\s/g, "")), { message: "must be an IBAN" })
)

export const CreditorBankAccountCreateRequest = Schema.Struct({
  account_holder_name: Name,
  account_number: Schema.optionalKey(AccountNumber),
  branch_code: Schema.optionalKey(Schema.String),
  /** Documented by GoCardless for some countries' local details; taken and not acted on (docs/http.md). */
  bank_code: Schema.optionalKey(Schema.String),
  iban: Schema.optionalKey(Iban),
  country_code: CountryCode,
  currency: Currency,
  account_type: optionalNullable(Schema.Literals(["savings", "checking"])),
  set_as_default_payout_account: Schema.optionalKey(Schema.Boolean),
  metadata: Schema.optionalKey(Metadata),
  links: Schema.Struct({ creditor: IdOf("creditor") })
})
export type CreditorBankAccountCreateCommand = typeof CreditorBankAccountCreateRequest.Type

/** `GET /creditor_bank_accounts` parameters (the real API's: `creditor`, `enabled`, `created_at`). */
export const CreditorBankAccountListParams = Schema.Struct({
  ...listFields("creditor_bank_account"),
  creditor: idFilter("creditor"),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})
export type CreditorBankAccountListParams = typeof CreditorBankAccountListParams.Type

const DirectorRequest = Schema.Struct({
  given_name: Name,
  family_name: Name,
  date_of_birth: InputDate,
  street: NonBlankString,
  city: NonBlankString,
  postal_code: NonBlankString,
  country_code: CountryCode
})

export const VerificationDetailCreateRequest = Schema.Struct({
  name: Name,
  company_number: NonBlankString,
  description: nonBlankUpTo(DESCRIPTION_MAX_LENGTH),
  address_line1: NonBlankString,
  address_line2: optionalNullable(Schema.String),
  address_line3: optionalNullable(Schema.String),
  city: NonBlankString,
  postal_code: NonBlankString,
  directors: Schema.Array(DirectorRequest),
  links: Schema.Struct({ creditor: IdOf("creditor") })
})
export type VerificationDetailCreateCommand = typeof VerificationDetailCreateRequest.Type

/** `GET /verification_details` parameters: the creditor is required. */
export const VerificationDetailListParams = Schema.Struct({ ...pageFields("verification_detail"), creditor: IdOf("creditor") })
export type VerificationDetailListParams = typeof VerificationDetailListParams.Type
