import { createHash } from "node:crypto"
import { Cause, Effect, Schema, Stream } from "effect"
import { detectReportFormat, isFileFormatError, REPORT_FORMATS, reportFormatOf, type ReportEntry, type ReportFormat, type ReportReader, SNIFF_LENGTH } from "@paykit/bank-files"
import { newId, now, type StorageFailure } from "@paykit/core"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { insertNew } from "../kernel/support.ts"
import { fileBytes, type FileDigest, fileWriter } from "../bank-submissions/bank-files.ts"
import { type BankReport, type BankReportNote, entryIdOf, reportFileOf } from "./domain/bank-reports.ts"
import { applyPageIsolated, REPORT_PAGE, type ReceiveDeps } from "./entries.ts"
import { applyWholeSubmission } from "./whole-submission.ts"

/**
 * Receiving a report, in passes over its bytes so that nothing is applied, or stored, from a file
 * that does not read to its end, and memory stays bounded whatever its size:
 *
 * 1. its format's reader checks the bytes as they come, counting its entries and hashing them; a
 *    file that fails anywhere is refused, naming the line or element, and nothing is kept. Bytes
 *    received before (the same SHA-256) answer that report: nothing is stored or applied twice.
 * 2. the bytes are read again and stored (sealed chunks), and the record made. A report's stream
 *    is therefore read twice: it must give the same bytes each time it is run (a file, a buffer,
 *    a download started again), or it is refused.
 * 3. the stored bytes are read again and the entries applied a page at a time, each page one unit
 *    of work with the report's progress (`applied_through`), so an interrupted application is
 *    finished by the next daily run from where it stopped.
 */

/** The largest report received: past it the report is refused (a bank's daily reports are far smaller). */
export const BANK_REPORT_MAX_BYTES = 512 * 1024 * 1024

/** A report that does not read as its format says: where, and what is wrong there. Nothing of it is applied. */
export class ReportRefused extends Schema.TaggedError<ReportRefused>()("ReportRefused", {
  location: Schema.String,
  message: Schema.String
}) {}

/** A report as it is handed in: its bytes, its format when known, the bank's name and notes. */
export interface IncomingReport<E> {
  /** Run twice (checked, then stored): each run must give the same bytes from the start. */
  readonly bytes: Stream.Stream<Uint8Array, E>
  readonly format?: ReportFormat
  readonly name?: string
  readonly notes?: ReadonlyArray<string | null>
  readonly source: BankReport["source"]
}

/** What receiving answers: the report, and whether it is new (false: these bytes were received before). */
export interface Received {
  readonly report: BankReport
  readonly created: boolean
}

const refusedBy = (e: { readonly location: string; readonly message: string }) => new ReportRefused({ location: e.location, message: e.message })

/** The reader of `format`, or the format named from the head of the file when none was given. */
const readerFor = (given: ReportFormat | undefined, head: Uint8Array): { readonly format: ReportFormat; readonly reader: ReportReader } | ReportRefused => {
  const format = given ?? detectReportFormat(new TextDecoder().decode(head))
  const found = format === undefined ? undefined : reportFormatOf(format)
  if (format === undefined || found === undefined) {
    return new ReportRefused({ location: "line 1", message: `not a report format paykit reads (${REPORT_FORMATS.join(", ")})` })
  }
  return { format, reader: found.report.reader() }
}

/**
 * Pass 1: the bytes read to their end by their format's reader, counting its entries and hashing
 * them, storing nothing: the format, entry count and digest, or the refusal.
 */
const check = <E>(incoming: IncomingReport<E>) =>
  Effect.gen(function*() {
    const hash = createHash("sha256")
    let head: Uint8Array = new Uint8Array(0)
    let chosen: { readonly format: ReportFormat; readonly reader: ReportReader } | undefined
    let count = 0
    let size = 0
    const feed = (chunk: Uint8Array): ReportRefused | undefined => {
      if (chosen === undefined) return undefined
      const got = chosen.reader.write(chunk)
      if (isFileFormatError(got)) return refusedBy(got)
      count += got.length
      return undefined
    }
    /** Chooses the reader once `SNIFF_LENGTH` bytes (or all of them) are in, and feeds it what was held back. */
    const choose = (final: boolean): ReportRefused | undefined => {
      if (chosen !== undefined || (head.length < SNIFF_LENGTH && !final)) return undefined
      const picked = readerFor(incoming.format, head)
      if (picked instanceof ReportRefused) return picked
      chosen = picked
      return feed(head)
    }
    yield* Stream.runForEach(incoming.bytes, (chunk) =>
      Effect.gen(function*() {
        size += chunk.length
        if (size > BANK_REPORT_MAX_BYTES) return yield* new ReportRefused({ location: "file", message: `larger than ${BANK_REPORT_MAX_BYTES} bytes` })
        hash.update(chunk)
        const refused = chosen === undefined ? (head = concat(head, chunk), choose(false)) : feed(chunk)
        if (refused !== undefined) return yield* refused
      }))
    const refused = choose(true)
    if (refused !== undefined) return yield* refused
    if (chosen === undefined) return yield* new ReportRefused({ location: "line 1", message: "the file is empty" })
    const rest = chosen.reader.end()
    if (isFileFormatError(rest)) return yield* refusedBy(rest)
    count += rest.length
    return { format: chosen.format, entry_count: count, digest: { size, sha256: hash.digest("hex") } }
  })

/** Pass 2: the bytes read again and stored (sealed chunks, `reportFileOf`); they must be those checked. */
const store = <E>(deps: ReceiveDeps, organisation: string, incoming: IncomingReport<E>, checked: FileDigest) =>
  Effect.gen(function*() {
    const out = fileWriter(deps, organisation, reportFileOf({ file_sha256: checked.sha256 }))
    yield* Stream.runForEach(incoming.bytes, out.write)
    const stored = yield* out.end()
    if (stored.sha256 !== checked.sha256) {
      return yield* new ReportRefused({ location: "file", message: "its bytes read again are not those checked (a report's stream must give the same bytes each time it is read)" })
    }
  })

/** The bank's notes kept apart from the record (only the entries that have one), a page a statement. */
const storeNotes = (deps: ReceiveDeps, organisation: string, report: string, notes: ReadonlyArray<string | null>) =>
  Effect.gen(function*() {
    const created_at = yield* now
    const rows: Array<BankReportNote> = []
    for (const [position, note] of notes.entries()) {
      if (note !== null) rows.push({ id: entryIdOf(report, position), created_at, report, position, note })
    }
    for (let start = 0; start < rows.length; start += REPORT_PAGE) {
      // Their ids are the new report's: one there already is a defect; a storage fault stays typed.
      yield* Effect.catchTag(deps.notes.insertAll(organisation, rows.slice(start, start + REPORT_PAGE)), "DuplicateId", Effect.die)
    }
  })

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/** Receives a report: stored, checked, made a record and applied; or the record of the same bytes received before. */
export const receiveReport = <E>(deps: ReceiveDeps, organisation: string, incoming: IncomingReport<E>): Effect.Effect<Received, ReportRefused | E | StorageFailure> =>
  Effect.gen(function*() {
    const checked = yield* check(incoming)
    const before = yield* deps.reports.scan(organisation, { file_sha256: eq(checked.digest.sha256) }, { limit: 1 })
    if (before[0] !== undefined) return { report: before[0].resource, created: false }
    yield* store(deps, organisation, incoming, checked.digest)
    const id = yield* deps.unitOfWork(newId("bank_report"))
    const report: BankReport = {
      id,
      created_at: yield* now,
      name: incoming.name ?? null,
      format: checked.format,
      source: incoming.source,
      file_size: checked.digest.size,
      file_sha256: checked.digest.sha256,
      entry_count: checked.entry_count,
      matched_count: 0,
      unmatched_count: 0,
      duplicate_count: 0,
      mismatched_count: 0,
      ignored_count: 0,
      applied_through: 0
    }
    // The record and its notes at once: a report is there with all its notes, or not at all.
    const stored = yield* deps.unitOfWork(Effect.tap(insertNew(deps.reports, organisation, report), () => storeNotes(deps, organisation, id, incoming.notes ?? [])))
    return { report: yield* applyReport(deps, organisation, stored), created: true }
  })

/**
 * Pass 3: the report's stored bytes read again and its entries applied from `applied_through`
 * on, a page (`REPORT_PAGE`) per unit of work; answers the report as it ends.
 */
export const applyReport = (deps: ReceiveDeps, organisation: string, stored: Versioned<BankReport>): Effect.Effect<BankReport, StorageFailure> =>
  Effect.gen(function*() {
    const report = stored.resource
    const found = reportFormatOf(report.format)
    if (found === undefined) return yield* Effect.die(new Error(`report ${report.id}: no reader for ${report.format}`))
    const reader = found.report.reader()
    let page: Array<{ position: number; entry: ReportEntry }> = []
    let position = 0
    const flush = (all: boolean): Effect.Effect<void, StorageFailure> =>
      Effect.suspend(() => {
        if (page.length === 0 || (!all && page.length < REPORT_PAGE)) return Effect.void
        const full = page
        page = []
        return applyPageIsolated(deps, organisation, report.id, full)
      })
    const take = (entries: ReadonlyArray<ReportEntry>): Effect.Effect<void, StorageFailure> =>
      Effect.forEach(entries, (entry) => {
        const at = position++
        if (entry.target.by !== "submission") {
          page.push({ position: at, entry })
          return flush(false)
        }
        // An entry about a whole file is applied item by item, after the entries before it.
        return Effect.andThen(flush(true), applyWholeSubmission(deps, organisation, report.id, at, entry))
      }, { discard: true })
    yield* Stream.runForEach(fileBytes(deps, organisation, reportFileOf(report)), (chunk) => {
      const got = reader.write(chunk)
      return isFileFormatError(got) ? Effect.die(new Error(`report ${report.id}: ${got.location}: ${got.message}`)) : take(got)
    })
    const rest = reader.end()
    if (isFileFormatError(rest)) return yield* Effect.die(new Error(`report ${report.id}: ${rest.location}: ${rest.message}`))
    yield* take(rest)
    yield* flush(true)
    return (yield* Effect.orDie(deps.reports.get(organisation, report.id))).resource
  })

/** A report's failure to apply is logged; the daily run takes it up again from where it stopped. */
export const REPORT_APPLY_FAILED = "bank reports: a report's application stopped; the next daily run goes on from where it stopped"

export const logged = (organisation: string, report: string, work: Effect.Effect<unknown, StorageFailure>) =>
  Effect.catchCause(Effect.asVoid(work), (cause) =>
    Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError(REPORT_APPLY_FAILED, Cause.pretty(cause)).pipe(Effect.annotateLogs({ organisation, report })))
