import { Cause, Effect } from "effect"
import type { ReportEntry } from "@paykit/bank-files"
import { now, type Timestamp, today } from "@paykit/core"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import { HoldWrites } from "../kernel/ports/repository.ts"
import { save, type UnitOfWork } from "../kernel/support.ts"
import type { FileDeps } from "../bank-submissions/bank-files.ts"
import type { BankSubmissionRepository } from "../bank-submissions/repositories.ts"
import { type Applied, applyEntry, type ApplyDeps, effectOf } from "./apply.ts"
import { type BankReport, type BankReportEntry, entryIdOf } from "./domain/bank-reports.ts"
import type { BankReportEntryRepository, BankReportNoteRepository, BankReportRepository } from "./repositories.ts"
import { type Resolution, type ResolveDeps, resolvePage } from "./resolve.ts"

/**
 * Report entries applied a page per unit of work: resolved within the organisation, found
 * duplicate when an earlier entry had their effect, applied through the machines, and kept as rows
 * with the report's counts and progress (`applied_through`). An entry that cannot be applied
 * costs only itself.
 */

/** Entries applied per unit of work. */
export const REPORT_PAGE = 200

export interface ReceiveDeps extends ApplyDeps, ResolveDeps, FileDeps {
  readonly submissions: BankSubmissionRepository["Service"]
  readonly reports: BankReportRepository["Service"]
  readonly entries: BankReportEntryRepository["Service"]
  readonly notes: BankReportNoteRepository["Service"]
  readonly unitOfWork: UnitOfWork
}

/** The bank's notes on the entries at `positions` of the report, by position: one read for a page. */
export const notesAt = (deps: ReceiveDeps, organisation: string, report: string, positions: ReadonlyArray<number>) =>
  Effect.map(
    deps.notes.getMany(organisation, positions.map((position) => entryIdOf(report, position))),
    (rows) => new Map(rows.map((row) => [row.resource.position, row.resource.note]))
  )

/** Which count an entry's outcome adds to. */
export const COUNTS: Readonly<Record<BankReportEntry["outcome"], keyof Pick<BankReport, "matched_count" | "unmatched_count" | "duplicate_count" | "mismatched_count" | "ignored_count">>> = {
  applied: "matched_count",
  scheduled: "matched_count",
  duplicate: "duplicate_count",
  unmatched: "unmatched_count",
  amount_mismatch: "mismatched_count",
  ignored: "ignored_count"
}

/** A page of entries with their positions in the file. */
export type Page = ReadonlyArray<{ readonly position: number; readonly entry: ReportEntry }>

/** The row an entry is kept as. */
export const rowOf = (report: string, { id, position, entry, note }: Pending, applied: Applied, created_at: Timestamp): BankReportEntry => ({
  id,
  created_at,
  report,
  position,
  kind: entry.kind,
  format: entry.format,
  code: entry.code,
  target: entry.target,
  amount: entry.amount ?? null,
  currency: entry.currency ?? null,
  effective_date: entry.effective_date ?? null,
  location: entry.location,
  note,
  ...applied
})

export const unapplied = (reason: string): Applied => ({ outcome: "unmatched", reason, cause: null, description: null, reason_code: null, due_on: null, links: {}, effect: null })

/** An entry to apply, with the id its row is kept under and the bank's note on it. */
export interface Pending {
  readonly id: string
  readonly position: number
  readonly entry: ReportEntry
  readonly note: string | null
}

/**
 * Entries resolved within the organisation, those whose effect an earlier entry had found
 * duplicate, the rest applied: their rows, in order, in the caller's unit of work.
 */
export const applyEntries = (deps: ReceiveDeps, organisation: string, report: string, todo: ReadonlyArray<Pending>) =>
  Effect.gen(function*() {
    const resolved: ReadonlyArray<Resolution> = yield* resolvePage(deps, organisation, todo.map(({ entry }) => entry))
    const effects = resolved.flatMap((r, i) => "unmatched" in r || todo[i] === undefined ? [] : [effectOf(todo[i].entry, r)])
    const seen = new Set(effects.length === 0 ? [] : (yield* deps.entries.scan(organisation, { effect: oneOf(effects) })).map((row) => row.resource.effect))
    const day = yield* today()
    const created_at = yield* now
    const rows: Array<BankReportEntry> = []
    // What was received before about a mandate: its stored rows, and this page's so far (kept at its end).
    const history = (mandate: string) =>
      Effect.map(deps.entries.scan(organisation, { subject: eq(mandate) }), (stored) => [
        ...stored.map((row) => row.resource),
        ...rows.filter((row) => row.links["mandate"] === mandate && row.links["payment"] === undefined)
      ])
    for (const [i, pending] of todo.entries()) {
      const r = resolved[i]
      let applied: Applied
      if (r === undefined || "unmatched" in r) {
        applied = unapplied(r === undefined ? "not resolved" : r.unmatched)
      } else if (seen.has(effectOf(pending.entry, r))) {
        applied = { ...unapplied("an earlier entry had this effect"), outcome: "duplicate" }
      } else {
        applied = yield* applyEntry(deps, organisation, pending.entry, pending.note, r, day, history)
        if (applied.effect !== null) seen.add(applied.effect)
      }
      rows.push(rowOf(report, pending, applied, created_at))
    }
    return rows
  })

/** One page applied in one unit of work: its entries applied, their rows and the report's progress kept. */
const applyPage = (deps: ReceiveDeps, organisation: string, reportId: string, page: Page) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.reports.get(organisation, reportId))
    const report = current.resource
    const todo = page.filter(({ position }) => position >= report.applied_through)
    if (todo.length === 0) return
    const notes = yield* notesAt(deps, organisation, report.id, todo.map(({ position }) => position))
    const rows = yield* applyEntries(deps, organisation, report.id, todo.map(({ position, entry }) => ({ id: entryIdOf(report.id, position), position, entry, note: notes.get(position) ?? null })))
    yield* deps.entries.insertAll(organisation, rows)
    const counts = { ...report }
    for (const row of rows) counts[COUNTS[row.outcome]] += 1
    const last = todo[todo.length - 1]
    yield* Effect.orDie(save(deps.reports, organisation, current, { ...counts, applied_through: (last?.position ?? 0) + 1 }))
  })

/** An entry that failed to apply alone, kept as such so the report goes on past it. */
const keepFailed = (deps: ReceiveDeps, organisation: string, reportId: string, position: number, entry: ReportEntry, cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.reports.get(organisation, reportId))
    if (position < current.resource.applied_through) return
    const failed: Applied = { ...unapplied(`could not be applied: ${Cause.pretty(cause).split("\n")[0] ?? "a defect"}`), outcome: "ignored" }
    const notes = yield* notesAt(deps, organisation, reportId, [position])
    const pending = { id: entryIdOf(reportId, position), position, entry, note: notes.get(position) ?? null }
    yield* deps.entries.insertAll(organisation, [rowOf(reportId, pending, failed, yield* now)])
    yield* Effect.orDie(save(deps.reports, organisation, current, { ...current.resource, ignored_count: current.resource.ignored_count + 1, applied_through: position + 1 }))
  })

/**
 * A page in one unit of work; when it fails, its entries one unit each, so an entry that cannot
 * be applied costs only itself: it is kept as ignored with the failure, and the others apply.
 * Since a failed page falls back so, its unit holds its writes until it ends (`HoldWrites`, as a
 * daily batch's): the page's moves are written as multi-row statements, not a few per entry.
 */
export const applyPageIsolated = (deps: ReceiveDeps, organisation: string, reportId: string, page: Page) =>
  Effect.catchCause(Effect.provideService(deps.unitOfWork(applyPage(deps, organisation, reportId, page)), HoldWrites, true), (cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.failCause(cause)
      : Effect.forEach(page, (one) =>
        Effect.catchCause(deps.unitOfWork(applyPage(deps, organisation, reportId, [one])), (alone) =>
          Cause.hasInterruptsOnly(alone) ? Effect.failCause(alone) : deps.unitOfWork(keepFailed(deps, organisation, reportId, one.position, one.entry, alone))), { discard: true }))

