import { Schema } from "effect"
import { PAYMENT_STATUSES } from "@paykit/machines"
import { CURRENCIES, ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableDate, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export const Payment = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  amount_refunded: Minor,
  app_fee: Schema.NullOr(Minor),
  charge_date: NullableDate,
  currency: Schema.Literals(CURRENCIES),
  description: NullableString,
  faster_ach: Schema.NullOr(Schema.Boolean),
  reference: NullableString,
  retry_if_possible: Schema.Boolean,
  scheme: NullableString,
  status: Schema.Literals(PAYMENT_STATUSES),
  fx: Schema.Struct({
    estimated_exchange_rate: NullableString,
    exchange_rate: NullableString,
    fx_amount: Schema.NullOr(Minor),
    fx_currency: Schema.NullOr(Schema.Literals(CURRENCIES))
  }),
  metadata: StoredMetadata,
  links: Schema.Struct({
    creditor: Schema.String,
    /** Absent on an instant (Pay by Bank) payment, as in the real API: it has no mandate. */
    mandate: Schema.optionalKey(Schema.String),
    subscription: Schema.optionalKey(Schema.String),
    payout: Schema.optionalKey(Schema.String),
    instalment_schedule: Schema.optionalKey(Schema.String)
  })
})
export type Payment = typeof Payment.Type

export const payments = defineResource({
  name: "payments",
  idPrefix: ID_PREFIXES.payment,
  schema: Payment,
  filters: {
    created_at: (r: Payment) => r.created_at,
    status: (r: Payment) => r.status,
    charge_date: (r: Payment) => r.charge_date,
    creditor: (r: Payment) => r.links.creditor,
    mandate: (r: Payment) => r.links.mandate ?? null,
    subscription: (r: Payment) => r.links.subscription ?? null,
    payout: (r: Payment) => r.links.payout ?? null,
    currency: (r: Payment) => r.currency,
    scheme: (r: Payment) => r.scheme
  }
})
