import { Schema } from "effect"
import { PAYOUT_STATUSES } from "@paykit/machines"
import { CURRENCIES, ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableDate, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export const Payout = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  deducted_fees: Schema.Int,
  currency: Schema.Literals(CURRENCIES),
  reference: Schema.String,
  status: Schema.Literals(PAYOUT_STATUSES),
  payout_type: Schema.Literals(["merchant", "partner"]),
  arrival_date: NullableDate,
  fx: Schema.Struct({
    fx_currency: Schema.NullOr(Schema.Literals(CURRENCIES)),
    fx_amount: Schema.NullOr(Minor),
    exchange_rate: NullableString,
    estimated_exchange_rate: NullableString
  }),
  tax_currency: Schema.NullOr(Schema.Literals(CURRENCIES)),
  metadata: StoredMetadata,
  links: Schema.Struct({ creditor: Schema.String, creditor_bank_account: Schema.String })
})
export type Payout = typeof Payout.Type

export const payouts = defineResource({
  name: "payouts",
  idPrefix: ID_PREFIXES.payout,
  schema: Payout,
  filters: {
    created_at: (r: Payout) => r.created_at,
    creditor: (r: Payout) => r.links.creditor,
    creditor_bank_account: (r: Payout) => r.links.creditor_bank_account,
    currency: (r: Payout) => r.currency,
    status: (r: Payout) => r.status,
    reference: (r: Payout) => r.reference,
    payout_type: (r: Payout) => r.payout_type
  }
})
