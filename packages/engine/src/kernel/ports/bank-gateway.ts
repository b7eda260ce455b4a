import { Context, type Effect, Schema, type Stream } from "effect"
import type { LocalDate, MandateScheme, Timestamp } from "@paykit/core"
import type { MandateInstruction, Originator, ReportFormat, SubmissionFileFormat } from "@paykit/bank-files"

/**
 * The bank port, as a real bank connection has it (docs/bank-rails.md). Direct debits go as files:
 * a day's items of a scheme and creditor are one submission (`BS...`), which `submit` hands over
 * for an acknowledgement only; outcomes come days later in reports, asked for by the daily run
 * (`reports`) or pushed (`BankReports.receive`), and applied through the machines. Payouts,
 * outbound and instant payments and funds checks are answered at once by banks (a Faster Payments
 * acceptance, open banking's payment initiation and confirmation of funds): synchronous calls.
 * `SandboxBank` (`memory/sandbox-bank.ts`) reads the files it is handed and writes the reports.
 */

/** A failure as an event's `details` say it: `insufficient_funds`, Bacs' `ARUDD-0`, the sentence. */
export interface BankFailure {
  readonly cause: string
  readonly reason_code: string
  readonly description: string
}

/** What a return reported after the collection settled says: the payment failed late. */
export const LATE_FAILURE_DESCRIPTION = "The payment was reported failed by the customer's bank after it had been collected."

/** The bank cannot be reached or refused the exchange itself (not an item in it): tried again on the next run. */
export class BankUnavailable extends Schema.TaggedError<BankUnavailable>()("BankUnavailable", { message: Schema.String }) {}

/** Who collects under a scheme at this bank: the identity a submission file is written under. */
export type Collector = Omit<Originator, "creditor">

/** A submission as the bank is handed it: its header's facts and its file's exact bytes. */
export interface SubmissionForBank {
  readonly organisation: string
  /** `BS...`: the file's message id, what an adapter makes its transfer idempotent by. */
  readonly id: string
  readonly scheme: MandateScheme
  readonly creditor: string
  readonly originator: Originator
  readonly file_format: SubmissionFileFormat
  /** The day its collections are charged: the scheme's next working day after it was made. */
  readonly processing_date: LocalDate
  readonly created_at: Timestamp
  readonly item_count: number
  readonly total_amount: number
  readonly currency: string
  /** The file's bytes, read a stored chunk at a time. */
  readonly file: Stream.Stream<Uint8Array>
}

/** A day's mandate setups of a scheme and creditor that no file carries (SEPA's travel with a first collection): its `id` is their batch's. */
export type UnfiledMandates = Omit<SubmissionForBank, "file_format" | "item_count" | "total_amount" | "file"> & { readonly items: ReadonlyArray<MandateInstruction> }

/** The bank took a submission: its own name for it, or null when no one has taken the file yet (a bank that downloads). */
export interface BankAcknowledgement {
  readonly reference: string | null
}

/** Submissions by the day they were made, or their processing date. */
export type SubmissionQuery = { readonly made_on?: LocalDate; readonly processing_date?: LocalDate }

/** What the daily run asks a bank for: the organisation's reports it has made available by `day`. */
export interface ReportRequest {
  readonly organisation: string
  readonly day: LocalDate
  /** The submissions handed to this bank, oldest first, with their files: for a bank that keeps no copies (the sandbox). */
  readonly submissions: (query: SubmissionQuery) => Stream.Stream<SubmissionForBank>
  /** Those made on a day, for a bank that checks a mandate when told of it (the sandbox, for the payer's bank). */
  readonly unfiled: (made_on: LocalDate) => Stream.Stream<UnfiledMandates>
}

/** A report a bank made available: its name (a file name, a message id), its format when known, its bytes (read twice: each run gives them all). */
export interface BankReportFile {
  readonly name: string
  readonly format?: ReportFormat
  readonly file: Stream.Stream<Uint8Array>
  /**
   * The bank's free text on entries, by position in the file (0-based), shown after the reason's
   * description: the sandbox names the test value there, which not every report has a field for.
   */
  readonly notes?: ReadonlyArray<string | null>
  /** Run once the engine has stored the report, so the bank's copy can be moved out of the inbox. */
  readonly taken?: Effect.Effect<void, BankUnavailable>
}

export type OutboundOutcome = { readonly outcome: "executed" } | ({ readonly outcome: "failed" } & BankFailure)

/** An instant bank payment is final once the payer's bank has authorised it: confirmed, or refused. */
export type InstantPaymentOutcome = { readonly outcome: "confirmed" } | ({ readonly outcome: "failed" } & BankFailure)

/** `scheme`: `faster_payments`, `sepa_credit_transfer` or `sepa_instant_credit_transfer`. */
export type InstantPaymentSubmission = { readonly paymentId: string; readonly amount: number; readonly currency: string; readonly scheme: string }

export type PayoutOutcome = { readonly outcome: "paid" } | ({ readonly outcome: "bounced" } & BankFailure)

export type OutboundSubmission = { readonly outboundPaymentId: string; readonly amount: number; readonly recipientAccountHolderName: string }

export interface PayoutSubmission {
  readonly payoutId: string
  readonly amount: number
  readonly currency: string
  readonly creditorName: string
  /** 0 for the first send, 1 for the first retry of a bounced payout, ... */
  readonly attempt: number
}

export type FundsCheck = { readonly mandateId: string; readonly accountHolderName: string; readonly amount: number }

export class BankGateway extends Context.Service<BankGateway, {
  /** Who collects under `scheme` at this bank (the file's originator); undefined when the bank does not collect it. */
  readonly collector: (scheme: string) => Collector | undefined
  /** Hands the bank a submission's file. Answers an acknowledgement, never an outcome; the same submission twice is one. */
  readonly submit: (submission: SubmissionForBank) => Effect.Effect<BankAcknowledgement, BankUnavailable>
  /** The reports the bank has made available for the organisation by the request's day, not yet taken. */
  readonly reports: (request: ReportRequest) => Effect.Effect<ReadonlyArray<BankReportFile>, BankUnavailable>
  readonly submitOutboundPayment: (submission: OutboundSubmission) => Effect.Effect<OutboundOutcome>
  readonly sendPayout: (submission: PayoutSubmission) => Effect.Effect<PayoutOutcome>
  /** An instant payment the payer authorised at their bank (billing requests without a mandate). */
  readonly authoriseInstantPayment: (submission: InstantPaymentSubmission) => Effect.Effect<InstantPaymentOutcome>
  /** Whether the payer's account would cover `amount` now (`GET /funds_availability`): yes or no, no balance. */
  readonly checkFunds: (check: FundsCheck) => Effect.Effect<boolean>
}>()("@paykit/engine/BankGateway") {}
