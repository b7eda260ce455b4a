import { Schema } from "effect"
import { Amount, Currency, IdOf, Metadata } from "@paykit/core"
import { PAYOUT_STATUSES } from "@paykit/machines"
import { idFilter, listFields, PageFields } from "../../kernel/list-params.ts"

export const NEGATIVE_BALANCE_LIMITS_ROOT = "negative_balance_limits"
export const TAX_RATES_ROOT = "tax_rates"

/** `GET /payouts` parameters. */
export const PayoutListParams = Schema.Struct({
  ...listFields("payout"),
  creditor: idFilter("creditor"),
  creditor_bank_account: idFilter("creditor_bank_account"),
  currency: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literals(PAYOUT_STATUSES)),
  reference: Schema.optionalKey(Schema.String),
  payout_type: Schema.optionalKey(Schema.Literals(["merchant", "partner"]))
})
export type PayoutListParams = typeof PayoutListParams.Type

/** `PUT /payouts/:id`: metadata is the one field and it is required. */
export const PayoutUpdateRequest = Schema.Struct({ metadata: Metadata })
export type PayoutUpdateCommand = typeof PayoutUpdateRequest.Type

/** `GET /negative_balance_limits` parameters. */
export const NegativeBalanceLimitListParams = Schema.Struct({
  ...listFields("negative_balance_limit"),
  creditor: idFilter("creditor"),
  currency: Schema.optionalKey(Currency)
})
export type NegativeBalanceLimitListParams = typeof NegativeBalanceLimitListParams.Type

/** A new limit in force (an engine operation: the API has no create endpoint). */
export const NegativeBalanceLimitSetRequest = Schema.Struct({
  balance_limit: Amount,
  currency: Currency,
  links: Schema.Struct({ creditor: IdOf("creditor"), creator_user: Schema.optionalKey(Schema.String) })
})
export type NegativeBalanceLimitSetCommand = typeof NegativeBalanceLimitSetRequest.Type

/** `GET /tax_rates` parameters: cursors are rate ids (`GB_VAT_1`), not stored resource ids. */
export const TaxRateListParams = Schema.Struct({ ...PageFields, jurisdiction: Schema.optionalKey(Schema.String) })
export type TaxRateListParams = typeof TaxRateListParams.Type
