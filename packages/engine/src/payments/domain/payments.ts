import { Schema } from "effect"
import { PAYMENT_STATUSES } from "@paykit/machines"
import { Amount, CURRENCIES, Currency, ID_PREFIXES, IdOf, InputDate, Metadata } from "@paykit/core"
import { Description, PositiveAmount } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { DateRange, idFilter, listFields, SortDirection } from "../../kernel/list-params.ts"
import { MetadataUpdateRequest } from "@paykit/core"
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

/** An amount as the `sort_amount` key holds it: zero-padded to 16 digits. */
export const paymentSortAmount = (amount: number): string => String(amount).padStart(16, "0")

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
    scheme: (r: Payment) => r.scheme,
    // The order of `sort_field=amount`: the amount as 16 digits (2^53 has 16), so text order is number order.
    sort_amount: (r: Payment) => paymentSortAmount(r.amount)
  }
})


/** The API resource key of payments: the root of their requests' field errors. */
export const PAYMENTS_ROOT = "payments"

/** The real API's limit: a failed payment can be retried at most three times (`retry_failed` beyond). */
export const PAYMENT_RETRIES_MAX = 3

export const PaymentCreateRequest = Schema.Struct({
  amount: PositiveAmount,
  currency: Currency,
  charge_date: Schema.optionalKey(InputDate),
  description: Schema.optionalKey(Description),
  reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  app_fee: Schema.optionalKey(Amount),
  retry_if_possible: Schema.optionalKey(Schema.Boolean),
  /** Documented by GoCardless for ACH and open-banking payments; taken and not acted on (docs/http.md). */
  faster_ach: Schema.optionalKey(Schema.Boolean),
  psu_interaction_type: Schema.optionalKey(Schema.Literals(["in_session", "off_session"])),
  links: Schema.Struct({ mandate: IdOf("mandate") })
})
export type PaymentCreateRequest = typeof PaymentCreateRequest.Type

/** `sort_field` of payments, and the filter key each orders by. */
export const PAYMENT_SORT_KEYS = { charge_date: "charge_date", amount: "sort_amount" } as const

export const PaymentListParams = Schema.Struct({
  ...listFields("payment"),
  creditor: idFilter("creditor"),
  customer: idFilter("customer"),
  mandate: idFilter("mandate"),
  subscription: idFilter("subscription"),
  currency: Schema.optionalKey(Currency),
  scheme: Schema.optionalKey(Schema.String),
  charge_date: Schema.optionalKey(DateRange),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(PAYMENT_STATUSES))),
  sort_field: Schema.optionalKey(Schema.Literals(Object.keys(PAYMENT_SORT_KEYS) as ["charge_date", "amount"])),
  sort_direction: Schema.optionalKey(SortDirection)
})
export type PaymentListParams = typeof PaymentListParams.Type

export const PaymentUpdateRequest = Schema.Struct({
  metadata: Schema.optionalKey(Metadata),
  retry_if_possible: Schema.optionalKey(Schema.Boolean)
})
export type PaymentUpdateRequest = typeof PaymentUpdateRequest.Type

export const PaymentRetryRequest = Schema.Struct({
  charge_date: Schema.optionalKey(InputDate),
  metadata: Schema.optionalKey(Metadata)
})
export type PaymentRetryRequest = typeof PaymentRetryRequest.Type

/** The body of a payment's cancellation: metadata only. */
export const PaymentCancelRequest = MetadataUpdateRequest
export type PaymentCancelRequest = typeof PaymentCancelRequest.Type
