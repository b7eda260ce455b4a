import { Schema } from "effect"
import { CURRENCIES, ID_PREFIXES, SCHEME_IDENTIFIER_SCHEMES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress } from "../../kernel/fields.ts"

export const CREDITOR_TYPES = ["company", "individual", "charity", "partnership", "trust"] as const
export const CREDITOR_VERIFICATION_STATUSES = ["successful", "in_review", "action_required"] as const
export const SCHEME_IDENTIFIER_STATUSES = ["pending", "active"] as const

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
