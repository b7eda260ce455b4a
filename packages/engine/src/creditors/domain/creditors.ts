import { Schema } from "effect"
import { CURRENCIES, type Currency, ID_PREFIXES, SCHEME_IDENTIFIER_SCHEMES } from "@paykit/core"
import { CREDITOR_VERIFICATION_STATUSES, SCHEME_IDENTIFIER_STATUSES } from "@paykit/machines"
import { CREDITOR_TYPES } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress } from "../../kernel/fields.ts"

export { CREDITOR_TYPES, CREDITOR_VERIFICATION_STATUSES, SCHEME_IDENTIFIER_STATUSES }

export const SchemeIdentifier = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  name: Schema.String,
  scheme: Schema.Literals(SCHEME_IDENTIFIER_SCHEMES),
  reference: NullableString,
  status: Schema.Literals(SCHEME_IDENTIFIER_STATUSES),
  minimum_advance_notice: Schema.Int,
  ...StoredAddress,
  email: NullableString,
  phone_number: NullableString,
  currency: Schema.Literals(CURRENCIES),
  can_specify_mandate_reference: Schema.Boolean
})
export type SchemeIdentifier = typeof SchemeIdentifier.Type

export const CreditorLinks = Schema.Struct({
  default_aud_payout_account: NullableString,
  default_cad_payout_account: NullableString,
  default_dkk_payout_account: NullableString,
  default_eur_payout_account: NullableString,
  default_gbp_payout_account: NullableString,
  default_nzd_payout_account: NullableString,
  default_sek_payout_account: NullableString,
  default_usd_payout_account: NullableString
})
export type CreditorLinks = typeof CreditorLinks.Type

/** The link naming a creditor's default payout account in a currency. */
export type PayoutLinkKey = `default_${Lowercase<Currency>}_payout_account`

/** The creditor link naming its default payout account in `currency`. */
export const payoutLinkKey = (currency: Currency): PayoutLinkKey => `default_${currency.toLowerCase()}_payout_account` as PayoutLinkKey

/** A new creditor's links: no default payout account in any currency. */
export const NO_PAYOUT_ACCOUNTS = Object.fromEntries(CURRENCIES.map((currency) => [payoutLinkKey(currency), null])) as CreditorLinks

export const Creditor = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  name: Schema.String,
  ...StoredAddress,
  creditor_type: Schema.NullOr(Schema.Literals(CREDITOR_TYPES)),
  bank_reference_prefix: Schema.String,
  can_create_refunds: Schema.Boolean,
  logo_url: NullableString,
  verification_status: Schema.Literals(CREDITOR_VERIFICATION_STATUSES),
  fx_payout_currency: Schema.NullOr(Schema.Literals(CURRENCIES)),
  mandate_imports_enabled: Schema.Boolean,
  custom_payment_pages_enabled: Schema.Boolean,
  merchant_responsible_for_notifications: Schema.Boolean,
  links: CreditorLinks,
  scheme_identifiers: Schema.Array(SchemeIdentifier)
})
export type Creditor = typeof Creditor.Type

export const creditors = defineResource({
  name: "creditors",
  idPrefix: ID_PREFIXES.creditor,
  schema: Creditor,
  filters: { created_at: (r: Creditor) => r.created_at }
})
