import { Schema } from "effect"
import { CountryCode, decodeInput, IdOf } from "@paykit/core"
import { Name, NonBlankString, optionalNullable } from "./fields.ts"

/** POST /creditors and the creditor update body, under `creditors`. */
export const CREDITORS = "creditors"

export const CREDITOR_TYPES = ["company", "individual", "charity", "partnership", "trust"] as const

export const CreditorCreate = Schema.Struct({
  name: Name,
  country_code: CountryCode,
  creditor_type: Schema.Literals(CREDITOR_TYPES),
  bank_reference_prefix: Schema.optionalKey(NonBlankString),
  /** The spec's create body holds an empty `links` object. */
  links: Schema.optionalKey(Schema.Struct({}))
}).annotate({ identifier: "CreditorCreate" })
export type CreditorCreate = typeof CreditorCreate.Type

export const PAYOUT_ACCOUNT_LINKS = [
  "default_aud_payout_account", "default_cad_payout_account", "default_dkk_payout_account", "default_eur_payout_account",
  "default_gbp_payout_account", "default_nzd_payout_account", "default_sek_payout_account", "default_usd_payout_account"
] as const

const payoutAccountLink = optionalNullable(IdOf("creditor_bank_account"))

export const CreditorUpdate = Schema.Struct({
  name: Schema.optionalKey(Name),
  address_line1: Schema.optionalKey(Schema.String),
  address_line2: Schema.optionalKey(Schema.String),
  address_line3: Schema.optionalKey(Schema.String),
  city: Schema.optionalKey(Schema.String),
  region: Schema.optionalKey(Schema.String),
  postal_code: Schema.optionalKey(Schema.String),
  country_code: Schema.optionalKey(CountryCode),
  bank_reference_prefix: Schema.optionalKey(NonBlankString),
  links: Schema.optionalKey(
    Schema.Struct({
      default_aud_payout_account: payoutAccountLink,
      default_cad_payout_account: payoutAccountLink,
      default_dkk_payout_account: payoutAccountLink,
      default_eur_payout_account: payoutAccountLink,
      default_gbp_payout_account: payoutAccountLink,
      default_nzd_payout_account: payoutAccountLink,
      default_sek_payout_account: payoutAccountLink,
      default_usd_payout_account: payoutAccountLink
    })
  )
}).annotate({ identifier: "CreditorUpdate" })
export type CreditorUpdate = typeof CreditorUpdate.Type

export const validateCreditorCreate = decodeInput(CreditorCreate, CREDITORS)
export const validateCreditorUpdate = decodeInput(CreditorUpdate, CREDITORS)
