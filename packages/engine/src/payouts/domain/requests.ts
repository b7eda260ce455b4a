import { Schema } from "effect"
import { Metadata } from "@paykit/core"
import { PAYOUT_STATUSES } from "@paykit/machines"
import { idFilter, listFields, PageFields } from "../../kernel/list-params.ts"

export const TAX_RATES_ROOT = "tax_rates"

/** `GET /payouts` parameters. */
export const PayoutListParams = Schema.Struct({
  ...listFields("payout"),
  creditor: idFilter("creditor"),
  creditor_bank_account: idFilter("creditor_bank_account"),
  currency: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literals(PAYOUT_STATUSES)),
  reference: Schema.optionalKey(Schema.String),
  payout_type: Schema.optionalKey(Schema.Literals(["merchant", "partner"])),
  /** `metadata[key]=value`: the payouts whose metadata holds each pair. */
  metadata: Schema.optionalKey(Metadata)
})
export type PayoutListParams = typeof PayoutListParams.Type

/** `PUT /payouts/:id`: metadata is the one field and it is required. */
export const PayoutUpdateRequest = Schema.Struct({ metadata: Metadata })
export type PayoutUpdateCommand = typeof PayoutUpdateRequest.Type

/** `GET /tax_rates` parameters: cursors are rate ids (`GB_VAT_1`), not stored resource ids. */
export const TaxRateListParams = Schema.Struct({ ...PageFields, jurisdiction: Schema.optionalKey(Schema.String) })
export type TaxRateListParams = typeof TaxRateListParams.Type
