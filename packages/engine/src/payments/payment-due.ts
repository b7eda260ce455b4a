import { Effect, Option } from "effect"
import { type LocalDate, now, today } from "@paykit/core"
import { isEndedMandateStatus, refundMachine } from "@paykit/machines"
import type { PaymentScheme } from "@paykit/money"
import { calendarFor } from "@paykit/schedule"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { BankFailure, CollectionOutcome } from "../kernel/ports/bank-gateway.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import { applyTransition, save } from "../kernel/support.ts"
import type { Payment } from "./domain/payments.ts"
import type { PaymentReversal } from "./domain/payment-reversals.ts"
import type { Refund } from "../refunds/domain/refunds.ts"
import { recordCollection, recordReversal } from "./payment-ledger.ts"
import { CHARGEBACK_AFTER_BUSINESS_DAYS, LATE_FAILURE_AFTER_BUSINESS_DAYS, movePayment, type PaymentDeps } from "./payment-rules.ts"
import { refundLinks } from "./refund-actions.ts"

/** Payment statuses a late failure or chargeback takes a collected payment from. */
export const REVERSIBLE_PAYMENT_STATUSES = ["paid_out", "confirmed"] as const


/** What the daily work of payments and refunds reads and writes. */
export interface PaymentDueDeps extends PaymentDeps {
  readonly eachItem: DailyItems
}

const outcomeOf = (deps: PaymentDeps, organisation: string, payment: Payment, mandateId: string) =>
  Effect.gen(function*() {
    const mandate = yield* Effect.orDie(deps.mandates.get(organisation, mandateId))
    const account = yield* Effect.orDie(deps.accounts.get(organisation, mandate.resource.links.customer_bank_account))
    const retries = yield* deps.log.scan(organisation, { payment: eq(payment.id), action: eq("resubmission_requested") })
    return yield* deps.bank.submitCollection({
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      scheme: mandate.resource.scheme,
      accountHolderName: account.resource.account_holder_name,
      attempt: retries.length
    })
  })

type Reversal = { readonly outcome: "late_failure" | "charged_back" } & BankFailure

/** The bank's answer says it will take the collection back: the late failure or chargeback, else none. */
const reversalOf = (outcome: CollectionOutcome): Reversal | undefined =>
  outcome.outcome === "late_failure" || outcome.outcome === "charged_back" ? outcome : undefined

/**
 * Keeps the day the bank will take a confirmed collection back (a late failure or chargeback, so
 * many working days after its charge date), so the daily run reads it on that day and never
 * looks at the payments that stay collected.
 */
const keepReversal = (deps: PaymentDeps, organisation: string, p: Payment, reversal: Reversal) =>
  Effect.gen(function*() {
    if (p.charge_date === null) return
    const calendar = calendarFor(p.scheme as PaymentScheme)
    const after = reversal.outcome === "late_failure" ? LATE_FAILURE_AFTER_BUSINESS_DAYS : CHARGEBACK_AFTER_BUSINESS_DAYS
    const { outcome, cause, reason_code, description } = reversal
    const record: PaymentReversal = {
      id: p.id,
      created_at: yield* now,
      outcome,
      cause,
      reason_code,
      description,
      due_on: calendar.addBusinessDays(p.charge_date, after),
      done: false
    }
    // A payment retried after its reversal is confirmed again: its record is renewed, not made twice.
    const kept = yield* Effect.option(deps.reversals.get(organisation, p.id))
    if (Option.isSome(kept)) yield* Effect.orDie(save(deps.reversals, organisation, kept.value, record))
    else yield* Effect.orDie(deps.reversals.insert(organisation, record))
  })

/**
 * The bank accepted a collection: the payment is confirmed and recorded in the ledger for payout.
 * `outcome` is the bank's answer when the caller has it (the daily run); without it (a scenario
 * simulator) the bank is asked, so a late failure or chargeback it will report is kept either way.
 */
export const confirmCollection = (deps: PaymentDeps, organisation: string, current: Versioned<Payment>, day: LocalDate, outcome?: CollectionOutcome) =>
  Effect.gen(function*() {
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, current.resource.links.creditor))
    yield* movePayment(deps, organisation, current, "confirm", {
      origin: "gocardless",
      cause: "payment_confirmed",
      description: "Enough time has passed since the payment was submitted for the banks to return an error, so this payment is now confirmed."
    })
    yield* recordCollection(deps, organisation, current.resource, creditor.resource, day)
    yield* keepBanksReversal(deps, organisation, current.resource, outcome)
  })

/**
 * Keeps the reversal the bank will make of a collected payment, if it will: `outcome` is its answer
 * to the collection when the caller has it; without it the bank is asked.
 */
export const keepBanksReversal = (deps: PaymentDeps, organisation: string, payment: Payment, outcome?: CollectionOutcome) =>
  Effect.gen(function*() {
    const mandateId = payment.links.mandate
    // An instant payment is final: no late failure or chargeback (no direct debit indemnity).
    if (mandateId === undefined || payment.charge_date === null) return
    const answer = outcome ?? (yield* outcomeOf(deps, organisation, payment, mandateId))
    const reversal = reversalOf(answer)
    if (reversal !== undefined) yield* keepReversal(deps, organisation, payment, reversal)
  })

/** The bank refused a submitted collection: the payment fails with the bank's answer. */
export const failCollection = (deps: PaymentDeps, organisation: string, current: Versioned<Payment>, failure: BankFailure) =>
  movePayment(deps, organisation, current, "fail", { origin: "bank", cause: failure.cause, description: failure.description }, { reason_code: failure.reason_code })

/** A collection due today: confirmed (and recorded for payout) or failed. */
const collect = (deps: PaymentDueDeps, organisation: string, current: Versioned<Payment>, day: LocalDate) =>
  Effect.gen(function*() {
    const mandateId = current.resource.links.mandate
    // Instant payments are confirmed when authorised and never wait here.
    if (mandateId === undefined) return
    const outcome = yield* outcomeOf(deps, organisation, current.resource, mandateId)
    if (outcome.outcome === "failed") {
      yield* failCollection(deps, organisation, current, outcome)
      return
    }
    yield* confirmCollection(deps, organisation, current, day, outcome)
  })

/** Mandate statuses a payment can be submitted on: the mandate is with the bank. */
export const SUBMITTABLE_MANDATE_STATUSES = ["active", "submitted"] as const

/**
 * The payment is submitted to the banks; a charge date that has passed (while waiting for the
 * mandate) moves to the next working day.
 */
export const submitPayment = (deps: PaymentDeps, organisation: string, current: Versioned<Payment>, day: LocalDate) => {
  const p = current.resource
  const calendar = calendarFor(p.scheme as PaymentScheme)
  const chargeDate = p.charge_date === null || p.charge_date <= day ? calendar.nextBusinessDay(day) : p.charge_date
  return movePayment(deps, organisation, current, "submit", { origin: "gocardless", cause: "payment_submitted", description: "Payment submitted to the banks. As a result, it can no longer be cancelled." }, {
    patch: (x) => ({ ...x, charge_date: chargeDate })
  })
}

/** Submission, one working day before the charge date, once the mandate is with the bank. */
const submitDue = (deps: PaymentDueDeps, organisation: string, current: Versioned<Payment>, day: LocalDate) =>
  Effect.gen(function*() {
    const p = current.resource
    if (p.charge_date === null || p.links.mandate === undefined) return
    const calendar = calendarFor(p.scheme as PaymentScheme)
    const mandate = (yield* Effect.orDie(deps.mandates.get(organisation, p.links.mandate))).resource
    if (isEndedMandateStatus(mandate.status)) {
      yield* movePayment(deps, organisation, current, "cancel", { origin: "gocardless", cause: `mandate_${mandate.status}`, description: "The mandate for this payment can no longer be charged." })
      return
    }
    if (calendar.previousBusinessDay(p.charge_date) > day) return
    if (!SUBMITTABLE_MANDATE_STATUSES.some((s) => s === mandate.status)) return
    yield* submitPayment(deps, organisation, current, day)
  })

/**
 * A collected payment taken back by the payer's bank: failed late or charged back, with the
 * bank's answer, and the reversal recorded in the ledger for the next payout to settle.
 */
export const reverseCollection = (
  deps: PaymentDeps,
  organisation: string,
  current: Versioned<Payment>,
  reversal: { readonly outcome: "late_failure" | "charged_back" } & BankFailure,
  day: LocalDate
) =>
  Effect.gen(function*() {
    const p = current.resource
    const lateFailure = reversal.outcome === "late_failure"
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, p.links.creditor))
    yield* movePayment(deps, organisation, current, lateFailure ? "fail" : "charge_back", { origin: "bank", cause: reversal.cause, description: reversal.description }, { reason_code: reversal.reason_code })
    yield* recordReversal(deps, organisation, p, creditor.resource, lateFailure ? "late_failure_settled" : "chargeback_settled", day)
  })

/**
 * A late failure or chargeback falling due today: the payment moves if it is still collected (a
 * scenario simulator may have moved it already), and the record is done either way.
 */
const reverseDue = (deps: PaymentDueDeps, organisation: string, record: Versioned<PaymentReversal>, day: LocalDate) =>
  Effect.gen(function*() {
    const { outcome, cause, reason_code, description } = record.resource
    const current = yield* Effect.orDie(deps.payments.get(organisation, record.resource.id))
    if (REVERSIBLE_PAYMENT_STATUSES.some((s) => s === current.resource.status)) {
      yield* reverseCollection(deps, organisation, current, { outcome, cause, reason_code, description }, day)
    }
    yield* save(deps.reversals, organisation, record, { ...record.resource, done: true })
  })

/** Refunds: queued, submitted the next day, paid the day after (one step per call). */
export const advanceRefund = (deps: Pick<PaymentDeps, "refunds">, organisation: string, current: Versioned<Refund>) => {
  const r = current.resource
  const event = r.status === "created" ? "queue" : r.status === "pending_submission" ? "submit" : "pay"
  return applyTransition(deps.refunds, {
    organisation,
    machine: refundMachine,
    current,
    event,
    context: {},
    cause: { origin: "gocardless", cause: `refund_${event}`, description: `The refund moved on: ${event}.` },
    links: refundLinks(r)
  })
}

/** What a batch of payments reads by id first, read for the batch in one statement: their mandates (a business's payments are on as many mandates as payers). */
const mandatesAhead = (deps: PaymentDueDeps, organisation: string) => (batch: ReadonlyArray<Versioned<Payment>>) =>
  deps.mandates.getMany(organisation, [...new Set(batch.flatMap((row) => row.resource.links.mandate === undefined ? [] : [row.resource.links.mandate]))])

/**
 * The bank's day for collections and refunds (the simulator's `payments` job), in this order:
 * submitted payments due today are confirmed or fail; pending payments due on the next working
 * day are submitted; payments whose late failure or chargeback falls due today move (read by that
 * day from their side records, not by looking at every collected payment); refunds advance
 * one step. Each step scans after the previous one has run, and each payment or refund is its
 * own unit of work.
 */
export const processPaymentsDay = (deps: PaymentDueDeps, organisation: string) =>
  Effect.gen(function*() {
    const day = yield* today()
    yield* deps.eachItem("payments: collections", organisation, yield* deps.payments.scan(organisation, { status: eq("submitted"), charge_date: { op: "range", lte: day } }), idOfVersioned, (current) =>
      collect(deps, organisation, current, day), mandatesAhead(deps, organisation))
    yield* deps.eachItem("payments: submission", organisation, yield* deps.payments.scan(organisation, { status: eq("pending_submission") }), idOfVersioned, (current) =>
      submitDue(deps, organisation, current, day), mandatesAhead(deps, organisation))
    yield* eachInChunks(deps.reversals, organisation, { due_on: { op: "range", lte: day } }, (due) =>
      deps.eachItem("payments: late failures and chargebacks", organisation, due, idOfVersioned, (record) => reverseDue(deps, organisation, record, day)))
    yield* deps.eachItem("refunds", organisation, yield* deps.refunds.scan(organisation, { status: oneOf(["created", "pending_submission", "submitted"]) }), idOfVersioned, (current) =>
      advanceRefund(deps, organisation, current))
  })

