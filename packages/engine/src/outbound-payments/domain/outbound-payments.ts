import { Schema } from "effect"
import { ID_PREFIXES, LocalDate, Metadata } from "@paykit/core"
import { OUTBOUND_PAYMENT_STATUSES } from "@paykit/machines"
import { OutboundPaymentCreateFields, OutboundPaymentUpdate, OutboundPaymentWithdrawalFields, optionalNullable } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { NAME_VERIFICATION_RESULTS } from "../../kernel/ports/name-verifier.ts"
import { CreatedAt, Id, Minor, NullableString, StoredMetadata } from "../../kernel/fields.ts"
import { pageFields, QueryTimestamp } from "../../kernel/list-params.ts"

/** The answers of confirmation of payee, as the name-verification port gives them. */
export const CONFIRMATION_OF_PAYEE_RESULTS = NAME_VERIFICATION_RESULTS

/** The spec's `verifications.recipient_bank_account_holder_verification`. */
export const RecipientVerification = Schema.Struct({
  type: Schema.Literals(["confirmation_of_payee"]),
  result: Schema.Literals(CONFIRMATION_OF_PAYEE_RESULTS),
  /** Only on a partial match: the name the recipient's bank holds. */
  actual_account_name: NullableString
})
export type RecipientVerification = typeof RecipientVerification.Type

export const OutboundPayment = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  currency: Schema.Literals(["GBP"]),
  description: NullableString,
  /** Null: sent as soon as possible after approval. */
  execution_date: Schema.NullOr(LocalDate),
  is_withdrawal: Schema.Boolean,
  reference: NullableString,
  scheme: Schema.Literals(["faster_payments"]),
  status: Schema.Literals(OUTBOUND_PAYMENT_STATUSES),
  verifications: Schema.NullOr(Schema.Struct({
    recipient_bank_account_holder_verification: Schema.NullOr(RecipientVerification)
  })),
  metadata: StoredMetadata,
  links: Schema.Struct({
    creditor: Schema.String,
    /** A customer bank account, or the creditor's own bank account for a withdrawal. */
    recipient_bank_account: Schema.String,
    customer: Schema.optionalKey(Schema.String),
    outbound_payment_import: Schema.optionalKey(Schema.String)
  })
})
export type OutboundPayment = typeof OutboundPayment.Type

export const outboundPayments = defineResource({
  name: "outbound_payments",
  idPrefix: ID_PREFIXES.outbound_payment,
  schema: OutboundPayment,
  filters: {
    created_at: (r: OutboundPayment) => r.created_at,
    status: (r: OutboundPayment) => r.status,
    creditor: (r: OutboundPayment) => r.links.creditor,
    outbound_payment_import: (r: OutboundPayment) => r.links.outbound_payment_import ?? null
  }
})

/**
 * `POST /outbound_payments`. Its `execution_date` must also not be before today in London: that
 * rule needs the clock, so the use case applies it to the decoded command.
 */
export const OutboundPaymentCreateRequest = OutboundPaymentCreateFields
export type OutboundPaymentCreateRequest = typeof OutboundPaymentCreateRequest.Type

/** `POST /outbound_payments/withdrawal`, with the same `execution_date` rule as a creation. */
export const OutboundPaymentWithdrawalRequest = OutboundPaymentWithdrawalFields
export type OutboundPaymentWithdrawalRequest = typeof OutboundPaymentWithdrawalRequest.Type

export const OutboundPaymentUpdateRequest = OutboundPaymentUpdate
export type OutboundPaymentUpdateRequest = typeof OutboundPaymentUpdateRequest.Type

/** `POST /outbound_payments/:id/actions/cancel`: metadata may be null (which clears it). */
export const OutboundPaymentCancelRequest = Schema.Struct({ metadata: optionalNullable(Metadata) })
export type OutboundPaymentCancelRequest = typeof OutboundPaymentCancelRequest.Type

export const OutboundPaymentListParams = Schema.Struct({
  ...pageFields("outbound_payment"),
  created_from: Schema.optionalKey(QueryTimestamp),
  created_to: Schema.optionalKey(QueryTimestamp),
  status: Schema.optionalKey(Schema.Literals(OUTBOUND_PAYMENT_STATUSES))
})
export type OutboundPaymentListParams = typeof OutboundPaymentListParams.Type
