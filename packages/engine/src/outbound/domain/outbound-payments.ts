import { Schema } from "effect"
import { ID_PREFIXES, LocalDate } from "@paykit/core"
import { OUTBOUND_PAYMENT_STATUSES } from "@paykit/machines"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export const CONFIRMATION_OF_PAYEE_RESULTS = ["full_match", "partial_match", "no_match", "unable_to_match"] as const

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
