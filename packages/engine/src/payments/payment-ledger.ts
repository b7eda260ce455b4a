import { Effect } from "effect"
import { type Currency, isCountryCode, type LocalDate, newId, now, type Timestamp, unsafeAmount } from "@paykit/core"
import { collectionCharges, DEFAULT_FEE_SCHEDULE, type PaymentScheme, surchargeCharge, taxJurisdictionOf } from "@paykit/money"
import { eq } from "../kernel/ports/list-query.ts"
import { insertNew } from "../kernel/support.ts"
import { recordAppFee } from "../ledger/app-fees.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import type { LedgerEntry } from "../ledger/domain/settlement-entries.ts"
import { type Payment, PAYMENTS_ROOT } from "./domain/payments.ts"
import type { Refund } from "../refunds/domain/refunds.ts"
import { ledgerMandateOf, type PaymentDeps, unsettledBalance } from "./payment-rules.ts"

// The ledger side of payments: what a collection, a reversal and a refund owe the creditor.

/** The creditor's balance not yet paid out, in minor units (negative when it owes). */
export const balance = (deps: PaymentDeps, organisation: string, creditor: string, currency: Currency) =>
  Effect.map(
    deps.ledger.scan(organisation, { creditor: eq(creditor), currency: eq(currency), payout: eq("none") }),
    (rows) => unsettledBalance(rows.map((r) => r.resource))
  )

/** A row of the creditor's ledger that no payout has taken yet; made now unless `at` is given. */
const append = (deps: PaymentDeps, organisation: string, creditor: string, entry: LedgerEntry["entry"], at?: Timestamp) =>
  Effect.gen(function*() {
    yield* insertNew(deps.ledger, organisation, {
      id: yield* newId("payout_item"),
      created_at: at ?? (yield* now),
      creditor,
      currency: entry.currency,
      payout: null,
      entry
    })
  })

/** Fixes the fees of a collected payment and records it in the ledger. */
export const recordCollection = (deps: PaymentDeps, organisation: string, payment: Payment, creditor: Creditor, day: LocalDate) =>
  Effect.gen(function*() {
    const charges = yield* Effect.orDie(Effect.fromResult(collectionCharges({
      schedule: DEFAULT_FEE_SCHEDULE,
      scheme: payment.scheme as PaymentScheme,
      currency: payment.currency,
      amount: payment.amount,
      app_fee: payment.app_fee ?? 0,
      tax_jurisdiction: taxJurisdictionOf(isCountryCode(creditor.country_code) ? creditor.country_code : null),
      date: day,
      root: PAYMENTS_ROOT
    })))
    const tax = charges.gocardless_fee.tax
    yield* append(deps, organisation, creditor.id, {
      kind: "payment_paid_out",
      currency: payment.currency,
      payment: payment.id,
      mandate: ledgerMandateOf(payment),
      amount: unsafeAmount(payment.amount),
      gocardless_fee: { fee: unsafeAmount(charges.gocardless_fee.fee), tax: tax === null ? null : { amount: unsafeAmount(tax.amount), tax_rate_id: tax.tax_rate_id } },
      app_fee: unsafeAmount(charges.app_fee)
    })
    yield* recordAppFee(deps, organisation, payment, "app_fee_collected", unsafeAmount(charges.app_fee), day)
  })

/** Takes back a paid-out payment (late failure or chargeback): fees refunded, surcharge charged. */
export const recordReversal = (deps: PaymentDeps, organisation: string, payment: Payment, creditor: Creditor, kind: "late_failure_settled" | "chargeback_settled", day: LocalDate) =>
  Effect.gen(function*() {
    const collected = (yield* deps.ledger.scan(organisation, { payment: eq(payment.id), kind: eq("payment_paid_out") }))[0]
    const original = collected?.resource.entry
    const jurisdiction = taxJurisdictionOf(isCountryCode(creditor.country_code) ? creditor.country_code : null)
    const surcharge = surchargeCharge(DEFAULT_FEE_SCHEDULE, kind, payment.currency, jurisdiction, day)
    // The merchant gets the app fee back, so the partner gives it back.
    const refundedAppFee = original?.kind === "payment_paid_out" ? original.app_fee : unsafeAmount(0)
    yield* append(deps, organisation, creditor.id, {
      kind,
      currency: payment.currency,
      payment: payment.id,
      mandate: ledgerMandateOf(payment),
      amount: unsafeAmount(payment.amount),
      refunded_gocardless_fee: original?.kind === "payment_paid_out" ? original.gocardless_fee : { fee: unsafeAmount(0), tax: null },
      refunded_app_fee: refundedAppFee,
      surcharge: { fee: unsafeAmount(surcharge.fee), tax: surcharge.tax === null ? null : { amount: unsafeAmount(surcharge.tax.amount), tax_rate_id: surcharge.tax.tax_rate_id } }
    })
    yield* recordAppFee(deps, organisation, payment, "app_fee_refunded", refundedAppFee, day)
  })

/** A refund's row, made with the refund: the amount goes back to the payer, no fee is charged. */
export const recordRefund = (deps: PaymentDeps, organisation: string, refund: Refund) =>
  append(deps, organisation, refund.links.creditor, {
    kind: "payment_refunded",
    currency: refund.currency,
    payment: refund.links.payment,
    mandate: refund.links.mandate,
    refund: refund.id,
    amount: unsafeAmount(refund.amount),
    gocardless_fee: { fee: unsafeAmount(0), tax: null }
  }, refund.created_at)


/**
 * A refund the payer's bank sent back (bounced, or its funds returned after payment): the amount
 * comes back to the creditor in the next payout (@paykit/money's `refund_funds_returned`).
 */
export const recordRefundReturned = (deps: PaymentDeps, organisation: string, refund: Refund) =>
  append(deps, organisation, refund.links.creditor, {
    kind: "refund_funds_returned",
    currency: refund.currency,
    refund: refund.id,
    mandate: refund.links.mandate,
    amount: unsafeAmount(refund.amount)
  })
