import { Effect, Option, Stream } from "effect"
import { bacsSerialOf, isFileFormatError, type ReportEntry, schemeFilesFor, type SubmittedItem } from "@paykit/bank-files"
import { ID_PREFIXES, isIdOf, now } from "@paykit/core"
import { eq } from "../kernel/ports/list-query.ts"
import { save } from "../kernel/support.ts"
import { fileBytes } from "../bank-submissions/bank-files.ts"
import type { BankSubmission } from "../bank-submissions/domain/bank-submissions.ts"
import { type BankReportEntry, entryIdOf } from "./domain/bank-reports.ts"
import { applyEntries, COUNTS, notesAt, type Pending, REPORT_PAGE, type ReceiveDeps, rowOf, unapplied } from "./entries.ts"

/**
 * An entry about a whole submission, or one batch of it (a bank refusing a file: a pain.002 group
 * status, an AUDDIS file rejection): it is about every item of it, each applied as an entry of its
 * own naming that item. The items are those the submission's file holds, read back with its
 * scheme's reader a page at a time (the file can be large), each page one unit of work. An item the
 * report also names one by one has that entry's effect once: whichever comes second is a
 * duplicate. The items' rows are kept under the entry's (`<entry id>.<n>`), and the entry's own
 * row sums them up once they are all applied; an interrupted expansion is taken up again from
 * the items not yet kept.
 */

/** The submission a report names: by its id (pain.008's `MsgId`), or by the serial a Bacs volume gives it. */
const submissionNamed = (deps: ReceiveDeps, organisation: string, id: string) =>
  isIdOf(ID_PREFIXES.bank_submission, id)
    ? Effect.map(Effect.option(deps.submissions.get(organisation, id)), Option.map((v) => v.resource))
    : Effect.map(deps.submissions.scan(organisation, { serial: eq(bacsSerialOf(id)) }), (rows) => Option.fromNullishOr(rows.at(-1)?.resource))

const itemIdOf = (entryId: string, n: number): string => `${entryId}.${String(n).padStart(9, "0")}`

/** The entry as it is about one of the submission's items. */
const aboutItem = (entry: ReportEntry, item: SubmittedItem): ReportEntry => ({
  ...entry,
  target: item.target,
  ...(item.amount === undefined ? {} : { amount: item.amount }),
  ...(item.scheme_reference === undefined ? {} : { scheme_reference: item.scheme_reference }),
  location: `${entry.location}, ${item.location}`
})

/** The summary an entry about a whole submission keeps, from its items' rows. */
const summaryOf = (rows: ReadonlyArray<Pick<BankReportEntry, "outcome">>) => {
  const tally = new Map<string, number>()
  for (const row of rows) tally.set(row.outcome, (tally.get(row.outcome) ?? 0) + 1)
  const moved = (tally.get("applied") ?? 0) + (tally.get("scheduled") ?? 0)
  const reason = `its ${rows.length} items: ${[...tally].map(([outcome, count]) => `${count} ${outcome}`).join(", ")}`
  return { outcome: moved > 0 ? "applied" as const : rows.length > 0 && tally.get("duplicate") === rows.length ? "duplicate" as const : "ignored" as const, reason }
}

/** The entry at `position` of the report, about a whole submission (or one batch of it). */
export const applyWholeSubmission = (deps: ReceiveDeps, organisation: string, reportId: string, position: number, entry: ReportEntry) =>
  Effect.gen(function*() {
    const report = (yield* Effect.orDie(deps.reports.get(organisation, reportId))).resource
    if (position < report.applied_through || entry.target.by !== "submission") return
    const target = entry.target
    const note = (yield* notesAt(deps, organisation, reportId, [position])).get(position) ?? null
    const entryId = entryIdOf(reportId, position)
    const named: Option.Option<BankSubmission> = yield* submissionNamed(deps, organisation, target.id)
    const kept: Array<Pick<BankReportEntry, "outcome">> = []
    if (Option.isSome(named)) {
      const submission = named.value
      const reader = schemeFilesFor(submission.scheme).submission.reader()
      let page: Array<Pending> = []
      let n = 0
      const flush = (all: boolean) =>
        Effect.suspend(() => {
          if (page.length === 0 || (!all && page.length < REPORT_PAGE)) return Effect.void
          const todo = page
          page = []
          return deps.unitOfWork(Effect.gen(function*() {
            const done = yield* deps.entries.getMany(organisation, todo.map((p) => p.id))
            const doneIds = new Set(done.map((row) => row.resource.id))
            const rows = yield* applyEntries(deps, organisation, reportId, todo.filter((p) => !doneIds.has(p.id)))
            yield* deps.entries.insertAll(organisation, rows)
            kept.push(...done.map((row) => row.resource), ...rows)
          }))
        })
      const take = (items: ReadonlyArray<SubmittedItem>) =>
        Effect.suspend(() => {
          for (const item of items) {
            if (target.batch !== undefined && item.batch !== target.batch) continue
            page.push({ id: itemIdOf(entryId, n++), position, entry: aboutItem(entry, item), note })
          }
          return flush(false)
        })
      yield* Stream.runForEach(fileBytes(deps, organisation, submission.id), (chunk) => {
        const got = reader.write(chunk)
        return isFileFormatError(got) ? Effect.die(new Error(`submission ${submission.id}: ${got.location}: ${got.message}`)) : take(got)
      })
      const end = reader.end()
      if (isFileFormatError(end)) return yield* Effect.die(new Error(`submission ${submission.id}: ${end.location}: ${end.message}`))
      yield* take(end.items)
      yield* flush(true)
    }
    yield* deps.unitOfWork(Effect.gen(function*() {
      const current = yield* Effect.orDie(deps.reports.get(organisation, reportId))
      const summary = Option.isNone(named)
        ? unapplied(`names the submission ${target.id}, which is not one of this organisation's`)
        : { ...unapplied(summaryOf(kept).reason), outcome: summaryOf(kept).outcome }
      yield* deps.entries.insertAll(organisation, [rowOf(reportId, { id: entryId, position, entry, note }, summary, yield* now)])
      const counts = { ...current.resource }
      counts[COUNTS[summary.outcome]] += 1
      yield* Effect.orDie(save(deps.reports, organisation, current, { ...counts, applied_through: position + 1 }))
    }))
  })
