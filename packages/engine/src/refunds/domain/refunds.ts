import { Schema } from "effect"
import { REFUND_STATUSES } from "@paykit/machines"
import { Amount, CURRENCIES, ID_PREFIXES, IdOf, Metadata } from "@paykit/core"
import { PositiveAmount } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"
import { CreatedAt, Id, Minor, NullableString, StoredMetadata } from "../../kernel/fields.ts"
import { MetadataUpdateRequest } from "@paykit/core"

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

/** The API resource key of refunds: the root of their requests' field errors. */
export const REFUNDS_ROOT = "refunds"

export const RefundCreateRequest = Schema.Struct({
  amount: PositiveAmount,
  total_amount_confirmation: Amount,
  reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  links: Schema.Struct({ payment: IdOf("payment") })
})
export type RefundCreateRequest = typeof RefundCreateRequest.Type

/** `PUT /refunds/:id`: only metadata changes. */
export const RefundUpdateRequest = MetadataUpdateRequest
export type RefundUpdateRequest = typeof RefundUpdateRequest.Type

export const RefundListParams = Schema.Struct({
  ...listFields("refund"),
  payment: idFilter("payment"),
  mandate: idFilter("mandate"),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(REFUND_STATUSES))),
  /** Refunds of payments (every refund paykit makes) or of mandates (none). */
  refund_type: Schema.optionalKey(Schema.Literals(["payment", "mandate"]))
})
export type RefundListParams = typeof RefundListParams.Type
