import { Amount, Currency } from "@paykit/core"
import { Schema } from "effect"

/**
 * The settled movements of a creditor's money that a payout gathers, one per settlement action.
 * Each carries the fees fixed when it happened (see `collectionCharges`, `surchargeCharge`), so a
 * payout is assembled from facts, never from a re-pricing.
 */

const Id = Schema.String.check(Schema.isMinLength(1))

export const TaxedFeeInput = Schema.Struct({
  fee: Amount,
  tax: Schema.NullOr(Schema.Struct({ amount: Amount, tax_rate_id: Id }))
}).annotate({ identifier: "TaxedFee" })
export type TaxedFeeInput = typeof TaxedFeeInput.Type

/** A payment collected and paid out: its amount, the service fee and the app fee it bore. */
export const PaymentPaidOut = Schema.Struct({
  kind: Schema.Literal("payment_paid_out"),
  currency: Currency,
  payment: Id,
  mandate: Id,
  amount: Amount,
  gocardless_fee: TaxedFeeInput,
  app_fee: Amount
})

const reversal = <K extends "late_failure_settled" | "chargeback_settled">(kind: K) =>
  Schema.Struct({
    kind: Schema.Literal(kind),
    currency: Currency,
    payment: Id,
    mandate: Id,
    /** The payment amount taken back from the merchant. */
    amount: Amount,
    /** The service fee (and its tax) refunded to the merchant. */
    refunded_gocardless_fee: TaxedFeeInput,
    /** The app fee refunded to the merchant (taken back from the partner). */
    refunded_app_fee: Amount,
    /** The surcharge for the failure or chargeback, and its tax. */
    surcharge: TaxedFeeInput
  })

/** A payment that failed after it was paid out (`late_failure_settled`). */
export const LateFailureSettled = reversal("late_failure_settled")
/** A payment charged back by the payer's bank (`chargeback_settled`). */
export const ChargebackSettled = reversal("chargeback_settled")

/** A refund of (part of) a paid-out payment, with the fee charged for refunding (often 0). */
export const PaymentRefunded = Schema.Struct({
  kind: Schema.Literal("payment_refunded"),
  currency: Currency,
  payment: Id,
  mandate: Id,
  refund: Id,
  amount: Amount,
  gocardless_fee: TaxedFeeInput
})

/** A refund sent to a customer that is not linked to a payment. */
export const RefundSent = Schema.Struct({
  kind: Schema.Literal("refund"),
  currency: Currency,
  refund: Id,
  mandate: Schema.optionalKey(Id),
  amount: Amount
})

/** A refund the customer's bank could not accept, its funds returned to the merchant. */
export const RefundFundsReturned = Schema.Struct({
  kind: Schema.Literal("refund_funds_returned"),
  currency: Currency,
  refund: Id,
  mandate: Schema.optionalKey(Id),
  amount: Amount
})

export const SettlementEntry = Schema.Union([
  PaymentPaidOut,
  LateFailureSettled,
  ChargebackSettled,
  PaymentRefunded,
  RefundSent,
  RefundFundsReturned
]).annotate({ identifier: "SettlementEntry" })
export type SettlementEntry = typeof SettlementEntry.Type
