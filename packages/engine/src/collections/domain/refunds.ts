import { Schema } from "effect"
import { REFUND_STATUSES } from "@paykit/machines"
import { CURRENCIES, ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export const Refund = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  currency: Schema.Literals(CURRENCIES),
  reference: NullableString,
  status: Schema.Literals(REFUND_STATUSES),
  fx: Schema.Struct({
    estimated_exchange_rate: NullableString,
    exchange_rate: NullableString,
    fx_amount: Schema.NullOr(Minor),
    fx_currency: Schema.NullOr(Schema.Literals(CURRENCIES))
  }),
  metadata: StoredMetadata,
  links: Schema.Struct({ payment: Schema.String, mandate: Schema.String, creditor: Schema.String })
})
export type Refund = typeof Refund.Type

export const refunds = defineResource({
  name: "refunds",
  idPrefix: ID_PREFIXES.refund,
  schema: Refund,
  filters: {
    created_at: (r: Refund) => r.created_at,
    status: (r: Refund) => r.status,
    payment: (r: Refund) => r.links.payment,
    mandate: (r: Refund) => r.links.mandate,
    creditor: (r: Refund) => r.links.creditor
  }
})
