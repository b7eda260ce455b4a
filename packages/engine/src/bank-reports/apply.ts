import { Effect } from "effect"
import { PAYKIT_REPORT_CODES, type ReasonMeaning, reportFormatOf, type ReportEntry } from "@paykit/bank-files"
import { type LocalDate, maxLocalDate, type StorageError } from "@paykit/core"
import type { PaymentStatus } from "@paykit/machines"
import { accountNumberEnding } from "@paykit/validation"
import { type BankFailure, LATE_FAILURE_DESCRIPTION } from "../kernel/ports/bank-gateway.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type EngineContext, save } from "../kernel/support.ts"
import type { FullBankDetails } from "../customers/bank-details-vault.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { MandateEndings } from "../mandates/mandate-cancel.ts"
import { watchAgain } from "../mandates/mandate-dormancy.ts"
import { moveMandate } from "../mandates/mandate-rules.ts"
import type { MandateDormancyRepository } from "../mandates/repositories.ts"
import type { Payment } from "../payments/domain/payments.ts"
import { failCollection, keepReversal, REVERSIBLE_PAYMENT_STATUSES, reverseCollection, type Reversal } from "../payments/payment-due.ts"
import type { PaymentDeps } from "../payments/payment-rules.ts"
import type { BankItem } from "../bank-submissions/domain/bank-items.ts"
import type { BankDetailsVault } from "../customers/bank-details-vault.ts"
import type { BankReportEntry, EntryOutcome } from "./domain/bank-reports.ts"

/**
 * One report entry applied through the machines: what it names, resolved within the organisation
 * (`resolve.ts`), moved as the scheme's code means, with the code, its cause and its description
 * in the event's `details`. Order-tolerant: a return before the collection settled fails it, after
 * it a late failure; a return or claim that takes effect later is kept (`payment_reversals`) and
 * applied on its day; an entry whose effect an earlier entry had is a duplicate and changes nothing.
 */

export interface ApplyDeps {
  readonly payment: PaymentDeps
  readonly vault: BankDetailsVault["Service"]
  readonly endings: MandateEndings["Service"]
  readonly dormancy: MandateDormancyRepository["Service"]
}

/** What an entry names, once found in the organisation: a payment (with its mandate) or a mandate, and the item the bank was handed. */
export interface Subject {
  readonly payment?: Versioned<Payment>
  readonly mandate: Versioned<Mandate>
  readonly item?: BankItem
}

/** What applying an entry came to, as its stored row says it. */
export type Applied = Pick<BankReportEntry, "outcome" | "reason" | "cause" | "description" | "reason_code" | "due_on" | "links" | "effect">

const nothing = (outcome: EntryOutcome, reason: string, links: Readonly<Record<string, string>> = {}, effect: string | null = null): Applied => ({
  outcome, reason, cause: null, description: null, reason_code: null, due_on: null, links, effect
})

/** What the scheme's code means; a code the scheme does not define is reported as it came. */
export const meaningOf = (entry: Pick<ReportEntry, "format" | "kind" | "code">): ReasonMeaning =>
  reportFormatOf(entry.format)?.files.meaning(entry.format, entry.kind, entry.code) ??
    { cause: "other", description: `The bank reported the code ${entry.code}.`, reason_code: entry.code }

/**
 * The failure an event gives: the cause's own sentence where the API has one (the same words
 * whichever scheme reported it), else the scheme's; a return after settlement says so; the bank's
 * note follows in parentheses.
 */
export const failureOf = (meaning: ReasonMeaning, note: string | null, late: boolean): BankFailure => {
  const sentence = late ? LATE_FAILURE_DESCRIPTION : PAYKIT_REPORT_CODES[meaning.cause]?.description ?? meaning.description
  return { cause: meaning.cause, reason_code: meaning.reason_code, description: note === null ? sentence : `${sentence} (${note})` }
}

/**
 * Kinds a subject can have more than once in its life: a mandate is cancelled, reinstated and
 * cancelled again; its account details change again. Their entries say which occurrence they are
 * by their effective date, so a later one is a new event and the same one sent again is not.
 */
const RECURRING_KINDS: ReadonlySet<ReportEntry["kind"]> = new Set(["mandate_cancelled", "mandate_reinstated", "bank_details_changed"])

/**
 * The effect an entry has on its subject, `<kind>:<subject>:<attempt>`, with `:<effective date>`
 * for a kind that recurs: a second entry with it is a duplicate. A collection's attempt, and a
 * mandate's rejection, happen once each, whatever the day a report gives.
 */
export const effectOf = (entry: Pick<ReportEntry, "kind" | "effective_date">, subject: Subject): string => {
  const once = `${entry.kind}:${subject.payment?.resource.id ?? subject.mandate.resource.id}:${subject.item?.attempt ?? 0}`
  return RECURRING_KINDS.has(entry.kind) && entry.effective_date !== undefined ? `${once}:${entry.effective_date}` : once
}

const linksOf = (subject: Subject): Record<string, string> =>
  subject.payment === undefined ? { mandate: subject.mandate.resource.id } : { payment: subject.payment.resource.id, mandate: subject.mandate.resource.id }

const moved = (failure: BankFailure, links: Record<string, string>, effect: string, due_on: LocalDate | null = null): Applied => ({
  outcome: due_on === null ? "applied" : "scheduled",
  reason: null,
  cause: failure.cause,
  description: failure.description,
  reason_code: failure.reason_code,
  due_on,
  links,
  effect
})

const ignored = (what: string, status: string, links: Record<string, string>) => nothing("ignored", `the ${what} is ${status}`, links)

/** A settled collection (confirmed, or paid out): what a return or claim on it reverses. */
const isSettled = (status: PaymentStatus): boolean => REVERSIBLE_PAYMENT_STATUSES.some((s) => s === status)

/** A return or an indemnity claim on a payment. */
const applyToPayment = (deps: ApplyDeps, organisation: string, entry: ReportEntry, note: string | null, subject: Subject, current: Versioned<Payment>, day: LocalDate) =>
  Effect.gen(function*() {
    const p = current.resource
    const links = linksOf(subject)
    const effect = effectOf(entry, subject)
    const meaning = meaningOf(entry)
    const effective = entry.effective_date ?? day
    const settlesOn = p.charge_date ?? day
    if (entry.kind === "collection_returned") {
      if (p.status !== "submitted" && !isSettled(p.status)) return ignored("payment", p.status, links)
      const late = isSettled(p.status) || effective > settlesOn
      const failure = failureOf(meaning, note, late)
      if (effective > day) {
        yield* keepReversal(deps.payment, organisation, p.id, { outcome: "late_failure", ...failure }, effective)
        return moved(failure, links, effect, effective)
      }
      if (p.status === "submitted") yield* failCollection(deps.payment, organisation, current, failure)
      else yield* reverseCollection(deps.payment, organisation, current, { outcome: "late_failure", ...failure }, day)
      return moved(failure, links, effect)
    }
    if (p.status !== "submitted" && !isSettled(p.status)) return ignored("payment", p.status, links)
    const claim: Reversal = { outcome: "charged_back", ...failureOf(meaning, note, false) }
    // A claim on a collection not settled yet takes effect once it has.
    const due = p.status === "submitted" ? maxLocalDate(effective, settlesOn) : effective
    if (due > day || p.status === "submitted") {
      yield* keepReversal(deps.payment, organisation, p.id, claim, due)
      return moved(claim, links, effect, due)
    }
    yield* reverseCollection(deps.payment, organisation, current, claim, day)
    return moved(claim, links, effect)
  })

/** The details the account has from now on: those kept, with what the bank says changed. */
const changedDetails = (kept: FullBankDetails, change: NonNullable<ReportEntry["new_details"]>): FullBankDetails => ({
  ...kept,
  account_holder_name: change.account_holder_name ?? kept.account_holder_name,
  iban: change.iban ?? kept.iban,
  account_number: change.account_number ?? kept.account_number,
  account_type: change.account_type ?? kept.account_type,
  bank_code: change.routing_number ?? change.bank_code ?? kept.bank_code,
  branch_code: change.sort_code ?? change.branch_code ?? kept.branch_code
})

/** A notification of change: the payer's account details replaced in the vault, and its shown ending with them. */
const changeDetails = (deps: ApplyDeps, organisation: string, entry: ReportEntry, note: string | null, subject: Subject) =>
  Effect.gen(function*() {
    const accountId = subject.mandate.resource.links.customer_bank_account
    const links = { ...linksOf(subject), customer_bank_account: accountId }
    const kept = yield* deps.vault.open(organisation, accountId)
    if (kept === undefined || entry.new_details === undefined) return nothing("ignored", "no details are kept for the account, or the entry names none", links)
    const next = changedDetails(kept, entry.new_details)
    yield* deps.vault.replace(organisation, accountId, next)
    const account = yield* Effect.orDie(deps.payment.accounts.get(organisation, accountId))
    if (next.account_number !== null && next.account_number !== kept.account_number) {
      const ending = accountNumberEnding(next.account_number, account.resource.currency === "NZD" ? "NZD" : null)
      yield* Effect.orDie(save(deps.payment.accounts, organisation, account, { ...account.resource, account_number_ending: ending }))
    }
    const meaning = meaningOf(entry)
    return moved(failureOf(meaning, note, false), links, effectOf(entry, subject))
  })

/** What a mandate's entries read of an entry: enough to move the mandate again from its stored row. */
type MandateEntry = Pick<ReportEntry, "kind" | "format" | "code" | "effective_date">

/** A mandate's rejection or cancellation by the bank: failed while it was being set up, cancelled (with what it takes) once live. */
const applyToMandate = (deps: ApplyDeps, organisation: string, entry: MandateEntry, note: string | null, subject: Subject) =>
  Effect.gen(function*() {
    const m = subject.mandate
    const links = linksOf(subject)
    const failure = failureOf(meaningOf(entry), note, false)
    const cause = { origin: "bank" as const, cause: failure.cause, description: failure.description }
    const status = m.resource.status
    if (entry.kind === "mandate_rejected" && (status === "pending_customer_approval" || status === "pending_submission" || status === "submitted")) {
      yield* moveMandate(deps.payment.mandates, organisation, m, "fail", cause, { reason_code: failure.reason_code })
      return moved(failure, links, effectOf(entry, subject))
    }
    if (status === "active" || status === "suspended_by_payer" || status === "pending_submission" || status === "submitted" || status === "pending_customer_approval") {
      const cancelled = yield* moveMandate(deps.payment.mandates, organisation, m, "cancel", cause, { reason_code: failure.reason_code })
      yield* deps.endings.cancelled(organisation, cancelled, { origin: "bank", cause: "mandate_cancelled", description: "The mandate for this payment was cancelled." })
      return moved(failure, links, effectOf(entry, subject))
    }
    return ignored("mandate", status, links)
  })

/**
 * A reinstatement by the payer's bank (Bacs ADDACS `R`): the bank holds the instruction again, so
 * a cancelled or expired mandate is live at once, through the machine's own path (`reinstate`,
 * then the activation that completes it: `resubmission_requested`, `reinstated`) with nothing to
 * lodge again, and watched for dormancy again. A mandate still live has nothing to reinstate.
 */
const reinstateMandate = (deps: ApplyDeps, organisation: string, entry: MandateEntry, note: string | null, subject: Subject) =>
  Effect.gen(function*() {
    const m = subject.mandate
    const links = linksOf(subject)
    if (m.resource.status !== "cancelled" && m.resource.status !== "expired") return ignored("mandate", m.resource.status, links)
    const failure = failureOf(meaningOf(entry), note, false)
    const cause = { origin: "bank" as const, cause: failure.cause, description: failure.description }
    yield* moveMandate(deps.payment.mandates, organisation, m, "reinstate", cause, { reason_code: failure.reason_code })
    const pending = yield* Effect.orDie(deps.payment.mandates.get(organisation, m.resource.id))
    yield* moveMandate(deps.payment.mandates, organisation, pending, "activate", cause, { reason_code: failure.reason_code })
    yield* watchAgain(deps.dormancy, organisation, m.resource.id)
    return moved(failure, links, effectOf(entry, subject))
  })

/** The rows of the entries received before about a mandate (by it alone, not through a payment of it). */
export type MandateHistory = (mandate: string) => Effect.Effect<ReadonlyArray<BankReportEntry>, StorageError>

/** Kinds that decide whether a mandate stands: the one with the latest effective date must win, in whatever order they come. */
const STANDING_KINDS: ReadonlySet<ReportEntry["kind"]> = new Set(["mandate_cancelled", "mandate_reinstated"])

const moveStanding = (deps: ApplyDeps, organisation: string, entry: MandateEntry, note: string | null, subject: Subject) =>
  entry.kind === "mandate_reinstated" ? reinstateMandate(deps, organisation, entry, note, subject) : applyToMandate(deps, organisation, entry, note, subject)

/** Received rows that take effect after `from`, found with something to do or nothing then, oldest first. */
const standingAfter = (rows: ReadonlyArray<BankReportEntry>, from: LocalDate) =>
  rows
    .filter((row) => STANDING_KINDS.has(row.kind) && row.effective_date !== null && row.effective_date > from && (row.outcome === "applied" || row.outcome === "ignored"))
    .sort((a, b) => (a.effective_date ?? "").localeCompare(b.effective_date ?? "") || a.id.localeCompare(b.id))

/**
 * A cancellation or reinstatement, applied; when it moved the mandate and the bank had already
 * reported later ones (a late advice: ADDACS files cross), those are applied again after it,
 * oldest first, as their own events, so the mandate ends as the latest says: a reinstatement
 * arriving after a later cancellation leaves the mandate cancelled, not live.
 */
const applyStanding = (deps: ApplyDeps, organisation: string, entry: ReportEntry, note: string | null, subject: Subject, history: MandateHistory) =>
  Effect.gen(function*() {
    const applied = yield* moveStanding(deps, organisation, entry, note, subject)
    const from = entry.effective_date
    if (applied.outcome !== "applied" || from === undefined) return applied
    const id = subject.mandate.resource.id
    for (const row of standingAfter(yield* history(id), from)) {
      const mandate = yield* deps.payment.mandates.get(organisation, id)
      const again: MandateEntry = { kind: row.kind, format: row.format, code: row.code, ...(row.effective_date === null ? {} : { effective_date: row.effective_date }) }
      yield* moveStanding(deps, organisation, again, row.note, { mandate })
    }
    return applied
  })

/**
 * `entry`, resolved to `subject`, applied on `day`; its note is the bank's free text on it;
 * `history` gives what was received before about a mandate.
 */
export const applyEntry = (deps: ApplyDeps, organisation: string, entry: ReportEntry, note: string | null, subject: Subject, day: LocalDate, history: MandateHistory): Effect.Effect<Applied, never, EngineContext> =>
  Effect.orDie(Effect.gen(function*() {
    if (entry.kind === "collection_returned" || entry.kind === "collection_charged_back") {
      if (subject.payment === undefined) return nothing("unmatched", "the entry is about a collection and names a mandate", linksOf(subject))
      const expected = subject.item?.amount ?? subject.payment.resource.amount
      if (entry.amount !== undefined && entry.amount !== expected) {
        return nothing("amount_mismatch", `the entry's amount ${entry.amount} differs from the ${expected} submitted`, linksOf(subject))
      }
      return yield* applyToPayment(deps, organisation, entry, note, subject, subject.payment, day)
    }
    if (entry.kind === "bank_details_changed") return yield* changeDetails(deps, organisation, entry, note, subject)
    // Read again: an entry before it in the page may have moved the mandate since it was resolved.
    const current = { ...subject, mandate: yield* deps.payment.mandates.get(organisation, subject.mandate.resource.id) }
    if (STANDING_KINDS.has(entry.kind)) return yield* applyStanding(deps, organisation, entry, note, current, history)
    return yield* applyToMandate(deps, organisation, entry, note, current)
  }))
