import { Schema } from "effect"
import { CURRENCIES, IdOf } from "@paykit/core"
import { PAYOUT_ITEM_TYPES } from "@paykit/money"
import { PageFields } from "../../kernel/list-params.ts"

/** The API's key of payout items: their path, and the root of their parameters' errors. */
export const PAYOUT_ITEMS = "payout_items"

/**
 * How long a payout's items can be read: the real API keeps them for payouts created in the last
 * six months and answers 410 Gone for older ones.
 */
export const PAYOUT_ITEMS_RETENTION_MONTHS = 6

const Currency = Schema.Literals(CURRENCIES)

/** The wire form of a payout item (the client's `PayoutItem`): amounts are minor units as decimal strings. */
export const PayoutItem = Schema.Struct({
  amount: Schema.String,
  type: Schema.Literals(PAYOUT_ITEM_TYPES),
  links: Schema.Struct({
    payment: Schema.optionalKey(Schema.String),
    mandate: Schema.optionalKey(Schema.String),
    refund: Schema.optionalKey(Schema.String)
  }),
  taxes: Schema.Array(Schema.Struct({
    amount: Schema.String,
    currency: Currency,
    destination_amount: Schema.NullOr(Schema.String),
    destination_currency: Currency,
    exchange_rate: Schema.NullOr(Schema.String),
    tax_rate_id: Schema.String
  }))
})
export type PayoutItem = typeof PayoutItem.Type

/**
 * `GET /payout_items` parameters: the payout is required. Items are not stored resources, so the
 * cursors are positions in the payout's items (`PageFields`), not ids. `include_2020_tax_cutover`
 * is accepted as the client sends it; it changes nothing here (no payout predates 2020).
 */
export const PayoutItemListParams = Schema.Struct({
  ...PageFields,
  payout: IdOf("payout"),
  include_2020_tax_cutover: Schema.optionalKey(Schema.Literals(["true", "false"]))
})
export type PayoutItemListParams = typeof PayoutItemListParams.Type
