import { Effect, Option } from "effect"
import { addDays, type LocalDate, now, today } from "@paykit/core"
import { isEndedMandateStatus, refundMachine } from "@paykit/machines"
import type { PaymentScheme } from "@paykit/money"
import { calendarFor } from "@paykit/schedule"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { BankFailure } from "../kernel/ports/bank-gateway.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import { applyTransition, save } from "../kernel/support.ts"
import type { Payment } from "./domain/payments.ts"
import type { PaymentReversal } from "./domain/payment-reversals.ts"
import type { Refund } from "../refunds/domain/refunds.ts"
import { recordCollection, recordReversal } from "./payment-ledger.ts"
import { movePayment, type PaymentDeps } from "./payment-rules.ts"
import { type QueueDeps, queueCollection, queueReadAhead } from "../bank-submissions/queue.ts"
import { mandateFactsOf } from "../mandates/mandate-due.ts"
import { refundLinks } from "./refund-actions.ts"

/** Payment statuses a late failure or chargeback takes a collected payment from. */
export const REVERSIBLE_PAYMENT_STATUSES = ["paid_out", "confirmed"] as const


/** What the daily work of payments and refunds reads and writes. */
export interface PaymentDueDeps extends PaymentDeps {
  /** Where a submitted payment's collection is queued for the bank. */
  readonly queue: QueueDeps
  readonly eachItem: DailyItems
}

/** A late failure or chargeback as a bank reports it, taking effect on a later day. */
export type Reversal = { readonly outcome: "late_failure" | "charged_back" } & BankFailure

/**
 * Keeps a reversal of a collection that takes effect on `due_on` (a bank reported it ahead: a
 * return effective after the payment settles, an indemnity claim debited later), so the daily
 * run reads it on that day and never looks at the payments that stay collected.
 */
export const keepReversal = (deps: Pick<PaymentDeps, "reversals">, organisation: string, payment: string, reversal: Reversal, due_on: LocalDate) =>
  Effect.gen(function*() {
    const { outcome, cause, reason_code, description } = reversal
    const record: PaymentReversal = { id: payment, created_at: yield* now, outcome, cause, reason_code, description, due_on, done: false }
    // A payment retried after its reversal is confirmed again: its record is renewed, not made twice.
    const kept = yield* Effect.option(deps.reversals.get(organisation, payment))
    if (Option.isSome(kept)) yield* Effect.orDie(save(deps.reversals, organisation, kept.value, record))
    else yield* Effect.orDie(deps.reversals.insert(organisation, record))
  })

/** The payment is confirmed: its scheme's deadline for a failure passed with none reported. Recorded in the ledger for payout. */
export const confirmCollection = (deps: PaymentDeps, organisation: string, current: Versioned<Payment>, day: LocalDate) =>
  Effect.gen(function*() {
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, current.resource.links.creditor))
    yield* movePayment(deps, organisation, current, "confirm", {
      origin: "gocardless",
      cause: "payment_confirmed",
      description: "Enough time has passed since the payment was submitted for the banks to return an error, so this payment is now confirmed."
    })
    yield* recordCollection(deps, organisation, current.resource, creditor.resource, day)
  })

/** The bank refused a submitted collection: the payment fails with the bank's answer. */
export const failCollection = (deps: PaymentDeps, organisation: string, current: Versioned<Payment>, failure: BankFailure) =>
  movePayment(deps, organisation, current, "fail", { origin: "bank", cause: failure.cause, description: failure.description }, { reason_code: failure.reason_code })

/**
 * A collection whose charge date has come with no failure reported (the day's bank reports,
 * applied before this job, failed those the bank returned): confirmed and recorded for payout.
 * Instant payments are confirmed when authorised and never wait here.
 */
const settle = (deps: PaymentDueDeps, organisation: string, current: Versioned<Payment>, day: LocalDate) =>
  current.resource.links.mandate === undefined ? Effect.void : confirmCollection(deps, organisation, current, day)

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

/**
 * Submission, one working day before the charge date, once the mandate is with the bank: the
 * payment moves and its collection is queued for the day's submission to the bank.
 */
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
    yield* submitToBank(deps, organisation, current, day)
  })

/** The payment submitted (`submitPayment`) and its collection queued for the day's submission to the bank. */
export const submitToBank = (deps: PaymentDeps & { readonly queue: QueueDeps }, organisation: string, current: Versioned<Payment>, day: LocalDate) =>
  Effect.gen(function*() {
    const submitted = yield* submitPayment(deps, organisation, current, day)
    const mandateId = submitted.links.mandate
    if (submitted.charge_date === null || mandateId === undefined) return submitted
    const mandate = (yield* Effect.orDie(deps.mandates.get(organisation, mandateId))).resource
    yield* queueCollection(deps.queue, organisation, mandateFactsOf(mandate), {
      id: submitted.id,
      amount: submitted.amount,
      currency: submitted.currency,
      charge_date: submitted.charge_date,
      remittance: submitted.description ?? submitted.reference,
      // Not active yet: the mandate goes to the bank with this, its first collection.
      first: mandate.status !== "active"
    })
    return submitted
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
 * A late failure or chargeback taking effect today: the payment moves if it is still collected (a
 * scenario simulator may have moved it already), and the record is done either way. A return
 * that takes effect before the payment settled fails it as a return does; a chargeback of a
 * payment not settled yet waits for the day after it settles.
 */
const reverseDue = (deps: PaymentDueDeps, organisation: string, record: Versioned<PaymentReversal>, day: LocalDate) =>
  Effect.gen(function*() {
    const { outcome, cause, reason_code, description } = record.resource
    const current = yield* Effect.orDie(deps.payments.get(organisation, record.resource.id))
    const status = current.resource.status
    if (REVERSIBLE_PAYMENT_STATUSES.some((s) => s === status)) {
      yield* reverseCollection(deps, organisation, current, { outcome, cause, reason_code, description }, day)
    } else if (status === "submitted" && outcome === "late_failure") {
      yield* failCollection(deps, organisation, current, { cause, reason_code, description })
    } else if (status === "submitted") {
      return yield* save(deps.reversals, organisation, record, { ...record.resource, due_on: addDays(day, 1) })
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

/** A submission batch's reads ahead: the mandates, then what queueing their collections reads (items, payers' details). */
const submissionAhead = (deps: PaymentDueDeps, organisation: string) => (batch: ReadonlyArray<Versioned<Payment>>) =>
  Effect.flatMap(mandatesAhead(deps, organisation)(batch), (mandates) =>
    queueReadAhead(deps.queue, organisation, batch.map(idOfVersioned), mandates.map((m) => m.resource.links.customer_bank_account)))

/**
 * The bank's day for collections and refunds (the simulator's `payments` job), in this order:
 * submitted payments whose charge date has come are confirmed (the day's bank reports, applied
 * before this job, failed those the bank returned); pending payments due on the next working day
 * are submitted, their collections queued for the bank; payments whose late failure or chargeback
 * takes effect today move (read by that day from their side records, not by looking at every
 * collected payment); refunds advance one step. Each step scans after the previous one has run,
 * and each payment or refund is its own unit of work.
 */
export const processPaymentsDay = (deps: PaymentDueDeps, organisation: string) =>
  Effect.gen(function*() {
    const day = yield* today()
    yield* deps.eachItem("payments: collections", organisation, yield* deps.payments.scan(organisation, { status: eq("submitted"), charge_date: { op: "range", lte: day } }), idOfVersioned, (current) =>
      settle(deps, organisation, current, day))
    yield* deps.eachItem("payments: submission", organisation, yield* deps.payments.scan(organisation, { status: eq("pending_submission") }), idOfVersioned, (current) =>
      submitDue(deps, organisation, current, day), submissionAhead(deps, organisation))
    yield* eachInChunks(deps.reversals, organisation, { due_on: { op: "range", lte: day } }, (due) =>
      deps.eachItem("payments: late failures and chargebacks", organisation, due, idOfVersioned, (record) => reverseDue(deps, organisation, record, day)))
    yield* deps.eachItem("refunds", organisation, yield* deps.refunds.scan(organisation, { status: oneOf(["created", "pending_submission", "submitted"]) }), idOfVersioned, (current) =>
      advanceRefund(deps, organisation, current))
  })

