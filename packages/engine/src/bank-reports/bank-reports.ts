import { Context, Effect, Layer, Stream } from "effect"
import { reportFormatOf } from "@paykit/bank-files"
import { decodeAtBoundary, type NotFound, type OrganisationId, type StorageError, type StorageFailure, today, type ValidationFailed } from "@paykit/core"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import { BankDetailsVault } from "../customers/bank-details-vault.ts"
import { MandateEndings } from "../mandates/mandate-cancel.ts"
import { MandateDormancyRepository } from "../mandates/repositories.ts"
import { paymentDeps } from "../payments/payments.ts"
import { BankFileChunkRepository, BankItemRepository, BankSubmissionRepository } from "../bank-submissions/repositories.ts"
import { BankSubmissions } from "../bank-submissions/bank-submissions.ts"
import { fileBytes } from "../bank-submissions/bank-files.ts"
import { type BankReport, type BankReportEntry, BankReportListParams, entryIdOf, reportFileOf } from "./domain/bank-reports.ts"
import { BankReportEntryRepository, BankReportNoteRepository, BankReportRepository } from "./repositories.ts"
import { type IncomingReport, logged, type Received, receiveReport, type ReportRefused, applyReport } from "./receive.ts"
import type { ReceiveDeps } from "./entries.ts"

/** A report's bytes as received, with the type and name they go by. */
export interface ReportFile {
  readonly report: BankReport
  readonly content_type: string
  readonly file_name: string
  readonly bytes: Stream.Stream<Uint8Array, StorageError>
}

/** The logs' message when a bank's report is refused (it does not read as its format says). */
export const REPORT_REFUSED = "bank reports: a report from the bank was refused; nothing of it was applied"

/** The logs' message when the bank could not be asked for its reports (asked again on the next run). */
export const REPORTS_UNAVAILABLE = "bank reports: the bank could not be asked for its reports; it is asked again on the next run"

/** Entries listed a page at a time. */
const ENTRIES_PAGE_MAX = 500
const decodeList = decodeAtBoundary(BankReportListParams, "bank_reports")

export class BankReports extends Context.Service<BankReports, {
  /**
   * Receives a report's raw bytes: stored as received, checked to its end, then applied. Answers
   * the report with its counts and `created: true`; the same bytes received before answer that
   * report with `created: false` and apply nothing. A report that does not read fails with
   * `ReportRefused` (the line or element, and what is wrong) and applies nothing.
   */
  readonly receive: <E>(organisation: OrganisationId, report: Omit<IncomingReport<E>, "source">) => Effect.Effect<Received, ReportRefused | E | StorageFailure>
  readonly list: (organisation: OrganisationId, params: typeof BankReportListParams.Encoded) => Effect.Effect<Page<BankReport>, ValidationFailed | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BankReport, NotFound | StorageError>
  /** The report's entries in file order, `limit` (at most 500) from just after the position `after`. */
  readonly entries: (organisation: OrganisationId, id: string, page?: { readonly after?: number; readonly limit?: number }) => Effect.Effect<ReadonlyArray<BankReportEntry>, NotFound | StorageError>
  /** The report's bytes exactly as received. */
  readonly file: (organisation: OrganisationId, id: string) => Effect.Effect<ReportFile, NotFound | StorageError>
  /**
   * The daily job `bank reports` (before mandates and payments): the reports the bank made
   * available by today are received and applied, and any report whose application was cut off is
   * finished.
   */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageFailure>
}>()("@paykit/engine/BankReports") {
  static readonly layer = Layer.effect(
    BankReports,
    Effect.gen(function*() {
      const payment = yield* paymentDeps
      const deps: ReceiveDeps = {
        payment,
        payments: payment.payments,
        mandates: payment.mandates,
        items: yield* BankItemRepository,
        submissions: yield* BankSubmissionRepository,
        chunks: yield* BankFileChunkRepository,
        vault: yield* BankDetailsVault,
        endings: yield* MandateEndings,
        dormancy: yield* MandateDormancyRepository,
        reports: yield* BankReportRepository,
        entries: yield* BankReportEntryRepository,
        notes: yield* BankReportNoteRepository,
        unitOfWork: yield* captureUnitOfWork
      }
      const bank = yield* BankGateway
      const submissions = yield* BankSubmissions
      const get = (o: OrganisationId, id: string) => Effect.map(deps.reports.get(o, id), (v) => v.resource)
      const collect = (o: OrganisationId) =>
        Effect.gen(function*() {
          const day = yield* today()
          const available = yield* Effect.result(bank.reports({ organisation: o, day, submissions: (query) => Stream.orDie(submissions.handedOver(o, query)), unfiled: (made_on) => Stream.orDie(submissions.unfiled(o, made_on)) }))
          if (available._tag === "Failure") return yield* Effect.logWarning(REPORTS_UNAVAILABLE).pipe(Effect.annotateLogs({ organisation: o, reason: available.failure.message }))
          for (const file of available.success) {
            const received = yield* Effect.result(receiveReport(deps, o, {
              bytes: file.file,
              source: "bank",
              name: file.name,
              ...(file.format === undefined ? {} : { format: file.format }),
              ...(file.notes === undefined ? {} : { notes: file.notes })
            }))
            if (received._tag === "Failure") {
              // The storage's failure is the run's, to retry; a report refused is logged and passed over.
              const refused = received.failure
              if (refused._tag !== "ReportRefused") return yield* Effect.fail(refused)
              yield* Effect.logError(REPORT_REFUSED).pipe(Effect.annotateLogs({ organisation: o, report: file.name, location: refused.location, reason: refused.message }))
              continue
            }
            if (file.taken !== undefined) yield* Effect.ignore(file.taken)
          }
        })
      const finishCutOff = (o: OrganisationId) =>
        Effect.flatMap(deps.reports.scan(o, { applying: eq("true") }), (cut) =>
          Effect.forEach(cut, (report) => logged(o, report.resource.id, applyReport(deps, o, report)), { discard: true }))
      return BankReports.of({
        receive: (o, report) => receiveReport(deps, o, { ...report, source: "posted" }),
        list: (o, plain) => Effect.flatMap(decodeList(plain), (params) => deps.reports.list(o, toListQuery(params, { format: params.format === undefined ? undefined : eq(params.format) }))),
        get,
        entries: (o, id, page = {}) =>
          Effect.flatMap(get(o, id), () =>
            Effect.map(
              deps.entries.scan(o, { report: eq(id) }, {
                limit: Math.min(page.limit ?? ENTRIES_PAGE_MAX, ENTRIES_PAGE_MAX),
                ...(page.after === undefined ? {} : { after: entryIdOf(id, page.after) })
              }),
              (rows) => rows.map((row) => row.resource)
            )),
        file: (o, id) =>
          Effect.map(get(o, id), (report) => ({
            report,
            content_type: reportFormatOf(report.format)?.report.contentType ?? "application/octet-stream",
            file_name: report.name ?? report.id,
            bytes: fileBytes(deps, o, reportFileOf(report))
          })),
        // A bank (or its adapter) failing in a way it should not stops its reports, not the day.
        processDay: (o) => Effect.andThen(finishCutOff(o), logged(o, "(the bank's reports)", collect(o)))
      })
    })
  )
}
