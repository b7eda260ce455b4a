import { Effect, Layer, Stream } from "effect"
import {
  type FileFormatError,
  isFileFormatError,
  paykitFiles,
  type ReportEntry,
  type ReportEntryKind,
  type ReportFormat,
  type ReportHeader,
  schemeFilesFor,
  type SchemeFiles,
  type MandateInstruction,
  type SubmittedItem
} from "@paykit/bank-files"
import { addDays, type LocalDate, maxLocalDate, localDateOfMillis, timestampFromMillis, timestampToMillis, toDayNumber, MILLIS_PER_DAY } from "@paykit/core"
import { calendarFor } from "@paykit/schedule"
import {
  type BankFailure,
  BankGateway,
  type BankReportFile,
  type Collector,
  type InstantPaymentOutcome,
  LATE_FAILURE_DESCRIPTION,
  type OutboundOutcome,
  type PayoutOutcome,
  type ReportRequest,
  type SubmissionForBank,
  type UnfiledMandates
} from "../kernel/ports/bank-gateway.ts"
import { type NameVerification, NameVerifier } from "../kernel/ports/name-verifier.ts"

/**
 * The deterministic sandbox bank and confirmation-of-payee service. Outcomes are chosen by magic
 * inputs, the way a payments sandbox's scenario simulators work, so a test picks a scenario by
 * naming an account holder or choosing an amount. The table is documented in docs/test-values.md;
 * these constants are its single source.
 *
 * For direct debits it is a bank on the same contract a real one implements: it acknowledges
 * the submissions it is handed, reads their files with the scheme's reader as a bank would, and
 * makes the reports a bank would send, in the scheme's own formats, on its timetable:
 *
 * - a mandate instruction is answered the day after its submission (rejected, or nothing); one
 *   no file carries (a SEPA mandate travels with its first collection) the bank is told of, and
 *   answers it as the payer's bank would, in a pain.002 naming the mandate alone;
 * - a collection is answered on its submission's processing date (its charge date, unless it was
 *   handed over late): returned at once, or returned effective `LATE_FAILURE_AFTER_BUSINESS_DAYS`
 *   working days after its charge date (a late failure), or claimed under the indemnity effective
 *   `CHARGEBACK_AFTER_BUSINESS_DAYS` working days after it (a chargeback).
 *
 * It keeps nothing: each day it reads back the files of the submissions whose answers fall due
 * (the engine keeps every file it handed over), so its reports are the same however often asked.
 */

/** Account holder names (case-insensitive substrings) that choose a collection scenario. */
export const SANDBOX_NAMES = {
  mandateFailure: "mandate fail",
  lateFailure: "late failure",
  chargeback: "chargeback",
  failure: "fail",
  payoutBounce: "bounce",
  noMatch: "no match",
  partialMatch: "partial",
  unableToMatch: "unable"
} as const

/** Amounts (in minor units) whose last two digits choose a scenario. */
export const SANDBOX_AMOUNT_ENDINGS = {
  failure: 91,
  lateFailure: 92,
  chargeback: 93
} as const

/** Working days after the charge date on which the sandbox bank's late failure or chargeback takes effect. */
export const LATE_FAILURE_AFTER_BUSINESS_DAYS = 3
export const CHARGEBACK_AFTER_BUSINESS_DAYS = 5

const has = (name: string, needle: string): boolean => name.toLowerCase().includes(needle)

const INSUFFICIENT_FUNDS: BankFailure = {
  cause: "insufficient_funds",
  reason_code: "ARUDD-0",
  description: "The customer's account had insufficient funds to make this payment."
}
const LATE_FAILURE: BankFailure = {
  cause: "insufficient_funds",
  reason_code: "ARUDD-0",
  description: LATE_FAILURE_DESCRIPTION
}
const CHARGEBACK: BankFailure = {
  cause: "authorisation_disputed",
  reason_code: "DDICA-1",
  description: "The customer has disputed having authorised you to take this payment."
}
const MANDATE_FAILURE: BankFailure = {
  cause: "invalid_bank_details",
  reason_code: "ADDACS-B",
  description: "The bank account details for this mandate are invalid."
}
const PAYOUT_BOUNCE: BankFailure = {
  cause: "payout_bounced",
  reason_code: "BACS-RETURN-0",
  description: "The creditor's bank returned the payout."
}
const OUTBOUND_FAILURE: BankFailure = {
  cause: "scheme_rejected",
  reason_code: "FPS-REJECT",
  description: "The recipient's bank rejected the payment."
}

/** The sandbox bank's answers, as the scenario simulators give them when they play the bank. */
export const SANDBOX_BANK_FAILURES = {
  insufficientFunds: INSUFFICIENT_FUNDS,
  lateFailure: LATE_FAILURE,
  chargeback: CHARGEBACK,
  mandateFailure: MANDATE_FAILURE,
  payoutBounce: PAYOUT_BOUNCE
} as const

/** What names the test value that chose an outcome, in the event's description: `sandbox test value: ...`. */
export const sandboxNote = (value: string): string => `sandbox test value: ${value}`

/**
 * A failure a test value chose, saying so in its description (the events' `details.description`),
 * so that a payment failing in the sandbox is never mistaken for a real bank's answer.
 */
const chosen = (failure: BankFailure, value: string): BankFailure => ({
  ...failure,
  description: `${failure.description} (${sandboxNote(value)})`
})

/** What the sandbox bank does with a collection, and the test value that chose it. */
export type SandboxCollectionOutcome = "failed" | "late_failure" | "charged_back"

/** Which test value, if any, chose a collection's outcome: the holder's name word, else the amount's ending. */
export const sandboxCollectionOutcome = (name: string, amount: number): { readonly outcome: SandboxCollectionOutcome; readonly value: string } | undefined => {
  const ending = amount % 100
  const by = (word: string, end: number) => has(name, word) ? `account holder name containing "${word}"` : ending === end ? `amount ending in ${end}` : undefined
  const late = by(SANDBOX_NAMES.lateFailure, SANDBOX_AMOUNT_ENDINGS.lateFailure)
  if (late !== undefined) return { outcome: "late_failure", value: late }
  const chargeback = by(SANDBOX_NAMES.chargeback, SANDBOX_AMOUNT_ENDINGS.chargeback)
  if (chargeback !== undefined) return { outcome: "charged_back", value: chargeback }
  const failed = by(SANDBOX_NAMES.failure, SANDBOX_AMOUNT_ENDINGS.failure)
  if (failed !== undefined) return { outcome: "failed", value: failed }
  return undefined
}

const AMOUNT_FAILURE = `amount ending in ${SANDBOX_AMOUNT_ENDINGS.failure}`

// ---------------------------------------------------------------------------------------------
// Direct debits: files in, reports out

/**
 * Who collects in the sandbox, per scheme: a sandbox collector's name, identifier and account in
 * each scheme's own shape (a Bacs service user number, a SEPA creditor identifier, an ACH company
 * identification, ...). They identify no real collector.
 */
export const SANDBOX_COLLECTORS: Readonly<Record<string, Collector>> = {
  bacs: { name: "PAYKIT SANDBOX", scheme_identifier: "999999", account: { account_holder_name: "PAYKIT SANDBOX", sort_code: "200000", account_number: "55779911" } },
  sepa_core: {
    name: "PAYKIT SANDBOX",
    scheme_identifier: "DE98ZZZ09999999999",
    account: { account_holder_name: "PAYKIT SANDBOX", iban: "DE89370400440532013000", bic: "COBADEFFXXX" }
  },
  ach: {
    name: "PAYKIT SANDBOX",
    scheme_identifier: "1999999999",
    account: { account_holder_name: "PAYKIT SANDBOX", routing_number: "026009593", account_number: "9999999999", account_type: "checking" }
  },
  becs: { name: "PAYKIT SANDBOX", scheme_identifier: "999999", account: { account_holder_name: "PAYKIT SANDBOX", bank_code: "082", branch_code: "082-902", account_number: "999999999" } },
  becs_nz: { name: "PAYKIT SANDBOX", scheme_identifier: "9999999", account: { account_holder_name: "PAYKIT SANDBOX", bank_code: "01", branch_code: "0902", account_number: "0999999-00" } },
  pad: { name: "PAYKIT SANDBOX", scheme_identifier: "9999999999", account: { account_holder_name: "PAYKIT SANDBOX", bank_code: "001", branch_code: "00011", account_number: "9999999" } },
  autogiro: { name: "PAYKIT SANDBOX", scheme_identifier: "9999999999", account: { account_holder_name: "PAYKIT SANDBOX", branch_code: "5527", account_number: "9999999999" } },
  betalingsservice: { name: "PAYKIT SANDBOX", scheme_identifier: "99999999", account: { account_holder_name: "PAYKIT SANDBOX", branch_code: "0040", account_number: "9999999999" } },
  pay_to: { name: "PAYKIT SANDBOX", scheme_identifier: "999999", account: { account_holder_name: "PAYKIT SANDBOX", bank_code: "082", branch_code: "082-902", account_number: "999999999" } }
}

/** What the sandbox reports of an item, before it is spelt in a format. */
type Answer = "mandate_rejected" | "returned" | "late_returned" | "charged_back"

/** The entry kind and the API cause of each answer. */
const ANSWERS: Readonly<Record<Answer, { readonly kind: ReportEntryKind; readonly cause: string }>> = {
  mandate_rejected: { kind: "mandate_rejected", cause: MANDATE_FAILURE.cause },
  returned: { kind: "collection_returned", cause: INSUFFICIENT_FUNDS.cause },
  late_returned: { kind: "collection_returned", cause: LATE_FAILURE.cause },
  charged_back: { kind: "collection_charged_back", cause: CHARGEBACK.cause }
}

/**
 * The report and code each scheme's bank spells an answer in, first choice first: a candidate
 * is used when the scheme's files read that report and mean that code as the answer's cause
 * (`SchemeFiles.meaning`); otherwise the answer goes in paykit's own report, whose codes are the
 * causes themselves.
 */
const SPELLINGS: Readonly<Record<string, Partial<Record<Answer, ReadonlyArray<readonly [ReportFormat, string]>>>>> = {
  bacs: {
    mandate_rejected: [["bacs_auddis", "L"], ["bacs_auddis", "5"]],
    returned: [["bacs_arudd", "0"]],
    late_returned: [["bacs_arudd", "0"]],
    charged_back: [["bacs_ddica", "1"]]
  },
  sepa_core: {
    mandate_rejected: [["pain.002.001.03", "AC01"], ["pain.002.001.03", "MD01"]],
    returned: [["pain.002.001.03", "AM04"]],
    late_returned: [["camt.054.001.02", "AM04"]],
    charged_back: [["camt.054.001.02", "MD01"], ["camt.054.001.02", "MD06"]]
  },
  ach: {
    mandate_rejected: [["nacha_returns", "R04"], ["nacha_returns", "R03"]],
    returned: [["nacha_returns", "R01"]],
    late_returned: [["nacha_returns", "R01"]],
    charged_back: [["nacha_returns", "R10"], ["nacha_returns", "R05"], ["nacha_returns", "R07"]]
  }
}

/** The format and code the sandbox writes `answer` in for `scheme`. */
export const sandboxSpelling = (scheme: string, answer: Answer): { readonly files: SchemeFiles; readonly format: ReportFormat; readonly code: string } => {
  const files = schemeFilesFor(scheme)
  const { kind, cause } = ANSWERS[answer]
  for (const [format, code] of SPELLINGS[scheme]?.[answer] ?? []) {
    if (files.reports.some((r) => r.format === format) && files.meaning(format, kind, code)?.cause === cause) return { files, format, code }
  }
  return { files: paykitFiles, format: "paykit_report", code: cause }
}

/** What the sandbox answers about: a submission, or the mandate setups of a batch no file carries. */
type Answered = Pick<SubmissionForBank, "id" | "scheme" | "creditor" | "originator" | "currency">

/** An entry the sandbox reports, with the note naming the test value that chose it. */
interface Reported {
  readonly creditor: string
  readonly submission: Answered
  readonly format: ReportFormat
  readonly files: SchemeFiles
  readonly entry: ReportEntry
  readonly note: string
}

const answerOf = (submission: Answered, item: SubmittedItem, answer: Answer, value: string, effective: LocalDate): Reported => {
  const { files, format, code } = sandboxSpelling(submission.scheme, answer)
  const entry: ReportEntry = {
    kind: ANSWERS[answer].kind,
    scheme: submission.scheme,
    format,
    target: item.target,
    code,
    ...(item.amount === undefined ? {} : { amount: item.amount, currency: submission.currency }),
    effective_date: effective,
    debtor: item.debtor,
    ...(item.batch === undefined ? {} : { submission: submission.id, batch: item.batch }),
    ...(item.scheme_reference === undefined ? {} : { scheme_reference: item.scheme_reference }),
    location: item.location
  }
  return { creditor: submission.creditor, submission, format, files, entry, note: sandboxNote(value) }
}

/**
 * What the sandbox bank answers of the items of `submission` on `day`: mandate instructions
 * handed over the day before, collections of a submission processed today. Anything no test value
 * chose is not reported: it settles by the scheme's rule.
 */
const answersOn = (submission: Pick<SubmissionForBank, "created_at" | "processing_date"> & Answered, items: ReadonlyArray<SubmittedItem>, day: LocalDate): ReadonlyArray<Reported> => {
  const calendar = calendarFor(submission.scheme)
  const mandatesDue = addDays(localDateOfMillis(timestampToMillis(submission.created_at)), 1) === day
  return items.flatMap((item): ReadonlyArray<Reported> => {
    const name = item.debtor.account_holder_name
    if (item.kind === "mandate") {
      return mandatesDue && item.action === "setup" && has(name, SANDBOX_NAMES.mandateFailure)
        ? [answerOf(submission, item, "mandate_rejected", `account holder name containing "${SANDBOX_NAMES.mandateFailure}"`, day)]
        : []
    }
    if (submission.processing_date !== day || item.amount === undefined) return []
    const chose = sandboxCollectionOutcome(name, item.amount)
    if (chose === undefined) return []
    const charged = item.charge_date ?? day
    const after = (days: number) => maxLocalDate(day, calendar.addBusinessDays(charged, days))
    switch (chose.outcome) {
      case "failed":
        return [answerOf(submission, item, "returned", chose.value, day)]
      case "late_failure":
        return [answerOf(submission, item, "late_returned", chose.value, after(LATE_FAILURE_AFTER_BUSINESS_DAYS))]
      case "charged_back":
        return [answerOf(submission, item, "charged_back", chose.value, after(CHARGEBACK_AFTER_BUSINESS_DAYS))]
    }
  })
}

/**
 * What the sandbox answers on `day` of the items of `submission`, its file read with its scheme's
 * reader as the bank that received it reads it: a chunk at a time, keeping only the answers.
 */
const answersOf = (submission: SubmissionForBank, day: LocalDate) =>
  Effect.gen(function*() {
    const reader = schemeFilesFor(submission.scheme).submission.reader()
    const answers: Array<Reported> = []
    let failed: FileFormatError | undefined
    yield* Stream.runForEach(submission.file, (chunk) =>
      Effect.sync(() => {
        if (failed !== undefined) return
        const got = reader.write(chunk)
        if (isFileFormatError(got)) failed = got
        else answers.push(...answersOn(submission, got, day))
      }))
    const end = failed ?? reader.end()
    if (isFileFormatError(end)) return yield* Effect.die(new Error(`sandbox bank: submission ${submission.id} does not read: ${end.location}: ${end.message}`))
    answers.push(...answersOn(submission, end.items, day))
    return answers
  })

/**
 * A mandate setup no file carries, as a report on it names it: by the mandate's reference alone
 * (a pain.002's `MndtId`, no end-to-end id and no amount), in the batch it was handed over in.
 */
const unfiledItem = (batch: string, m: MandateInstruction): SubmittedItem => ({
  kind: "mandate",
  action: m.action,
  target: { by: "mandate_reference", reference: m.mandate_reference },
  mandate_reference: m.mandate_reference,
  debtor: m.debtor,
  batch,
  location: `mandate ${m.mandate}`
})

const encoder = new TextEncoder()

/**
 * One report of `entries` (one submission and format, and one day they take effect: a pain.002
 * answers one message), written
 * as the scheme's bank writes it: dated the day its entries take effect (a Bacs report's
 * processing day or date of debit is its entries'), made at the start of `day`, so the same day's
 * report asked for again is the same bytes.
 */
const reportOf = (day: LocalDate, entries: ReadonlyArray<Reported>): Effect.Effect<ReadonlyArray<BankReportFile>> => {
  const first = entries[0]
  const report = first?.files.reports.find((r) => r.format === first.format)
  if (first === undefined || report === undefined) return Effect.succeed([])
  const effective = first.entry.effective_date ?? day
  const id = `SANDBOX-${day}-${first.submission.id}-${first.format}-${effective}`
  const header: ReportHeader = {
    id,
    scheme: first.submission.scheme,
    format: first.format,
    created_at: timestampFromMillis(toDayNumber(day) * MILLIS_PER_DAY),
    report_date: effective,
    originator: first.submission.originator,
    currency: first.submission.currency
  }
  const writer = report.writer(header)
  const parts = [writer.begin(), ...entries.map((e) => writer.entry(e.entry))]
  const end = writer.end()
  if (isFileFormatError(end)) return Effect.die(new Error(`sandbox bank: report ${id} does not write: ${end.location}: ${end.message}`))
  return Effect.succeed([{
    name: id,
    format: first.format,
    file: Stream.fromIterable([...parts, end].filter((part) => part.length > 0).map((part) => encoder.encode(part))),
    notes: entries.map((e) => e.note)
  }])
}

/** The sandbox's reports for `request.day`: one per submission answered, format and day of effect. */
const sandboxReports = (request: ReportRequest) =>
  Effect.gen(function*() {
    const day = request.day
    const seen = new Set<string>()
    const reported: Array<Reported> = []
    const read = (submission: SubmissionForBank) =>
      seen.has(submission.id)
        ? Effect.void
        : Effect.map(answersOf(submission, day), (answers) => {
          seen.add(submission.id)
          reported.push(...answers)
        })
    yield* Stream.runForEach(request.submissions({ made_on: addDays(day, -1) }), read)
    yield* Stream.runForEach(request.submissions({ processing_date: day }), read)
    yield* Stream.runForEach(request.unfiled(addDays(day, -1)), (unfiled: UnfiledMandates) =>
      Effect.sync(() => reported.push(...answersOn(unfiled, unfiled.items.map((m) => unfiledItem(unfiled.id, m)), day))))
    const groups = new Map<string, Array<Reported>>()
    for (const r of reported) {
      const key = `${r.submission.id}/${r.format}/${r.entry.effective_date ?? day}`
      groups.set(key, [...(groups.get(key) ?? []), r])
    }
    return (yield* Effect.forEach([...groups.values()], (entries) => reportOf(day, entries))).flat()
  })

export const sandboxBank: BankGateway["Service"] = BankGateway.of({
  collector: (scheme) => SANDBOX_COLLECTORS[scheme],
  submit: (s) => Effect.succeed({ reference: `SANDBOX-${s.id}` }),
  reports: sandboxReports,
  submitOutboundPayment: (s) =>
    Effect.succeed<OutboundOutcome>(
      has(s.recipientAccountHolderName, SANDBOX_NAMES.failure)
        ? { outcome: "failed", ...chosen(OUTBOUND_FAILURE, `recipient account holder name containing "${SANDBOX_NAMES.failure}"`) }
        : s.amount % 100 === SANDBOX_AMOUNT_ENDINGS.failure
        ? { outcome: "failed", ...chosen(OUTBOUND_FAILURE, AMOUNT_FAILURE) }
        : { outcome: "executed" }
    ),
  // There is no direct debit to fail later: only the amount ending 91 is refused at the bank.
  authoriseInstantPayment: (s) =>
    Effect.succeed<InstantPaymentOutcome>(
      s.amount % 100 === SANDBOX_AMOUNT_ENDINGS.failure ? { outcome: "failed", ...chosen(INSUFFICIENT_FUNDS, AMOUNT_FAILURE) } : { outcome: "confirmed" }
    ),
  // A bouncing creditor's first send bounces; its retry is paid, as after fixing the account.
  sendPayout: (s) =>
    Effect.succeed<PayoutOutcome>(
      has(s.creditorName, SANDBOX_NAMES.payoutBounce) && s.attempt === 0
        ? { outcome: "bounced", ...chosen(PAYOUT_BOUNCE, `creditor name containing "${SANDBOX_NAMES.payoutBounce}"`) }
        : { outcome: "paid" }
    ),
  // The account lacks the funds exactly when a collection of the amount would fail on them now.
  checkFunds: (c) => Effect.succeed(sandboxCollectionOutcome(c.accountHolderName, c.amount)?.outcome !== "failed")
})

/** The name the sandbox bank holds for a partial match: the given name without the magic word. */
const actualNameOf = (name: string): string =>
  name.replace(/partial/gi, "").replace(/\s+/g, " ").trim().toUpperCase()

export const sandboxNameVerifier: NameVerifier["Service"] = NameVerifier.of({
  verify: (r) =>
    Effect.succeed<NameVerification>(
      has(r.account_holder_name, SANDBOX_NAMES.noMatch)
        ? { result: "no_match", actual_account_name: null }
        : has(r.account_holder_name, SANDBOX_NAMES.unableToMatch)
        ? { result: "unable_to_match", actual_account_name: null }
        : has(r.account_holder_name, SANDBOX_NAMES.partialMatch)
        ? { result: "partial_match", actual_account_name: actualNameOf(r.account_holder_name) }
        : { result: "full_match", actual_account_name: null }
    )
})

export const SandboxBank: Layer.Layer<BankGateway | NameVerifier> = Layer.mergeAll(
  Layer.succeed(BankGateway, sandboxBank),
  Layer.succeed(NameVerifier, sandboxNameVerifier)
)
