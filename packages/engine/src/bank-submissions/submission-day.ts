import { Cause, Effect, Schema, Stream } from "effect"
import { isFileFormatError, type MandateInstruction, type Originator, type SchemeFiles, schemeFilesFor, type SubmissionHeader } from "@paykit/bank-files"
import { addDays, type LocalDate, newId, now, type StorageError, today, type StorageFailure } from "@paykit/core"
import { calendarFor } from "@paykit/schedule"
import { CURRENCY_OF_MANDATE_SCHEME } from "@paykit/validation"
import { type BankGateway, type SubmissionForBank, type UnfiledMandates } from "../kernel/ports/bank-gateway.ts"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { insertNew, save, type UnitOfWork } from "../kernel/support.ts"
import { eachInChunks } from "../due-work/daily-items.ts"
import type { CreditorRepository } from "../creditors/repositories.ts"
import { identifierSchemeOf } from "../creditors/scheme-identifiers.ts"
import type { BankBatch, BankItem } from "./domain/bank-items.ts"
import type { BankSubmission } from "./domain/bank-submissions.ts"
import { SnapshotJson } from "./domain/snapshots.ts"
import { fileBytes, type FileDeps, fileWriter } from "./bank-files.ts"
import { itemContextOf } from "./queue.ts"
import { type BankStores, scanPages } from "./repositories.ts"

/**
 * The day's submissions (the daily job `bank submissions`, after payments): every open batch
 * becomes a submission, its file is written from the items' snapshots, and the file is handed to
 * the bank. Each step is kept as it completes (closed batch, written file, acknowledgement), so a
 * run cut off anywhere is finished by the next: a submission still waiting for its file or the
 * bank is taken up again.
 */

export interface SubmissionDayDeps extends BankStores, FileDeps {
  readonly creditors: CreditorRepository["Service"]
  readonly bank: BankGateway["Service"]
  readonly unitOfWork: UnitOfWork
}

/** The logs' message when a submission cannot go yet (no one collects the scheme, the bank is unavailable). */
export const SUBMISSION_WAITS = "bank submissions: a submission waits for the next run"

/** Who the creditor collects as under `scheme`: its own identifier when the scheme registered one, else the bank's collector. */
const originatorOf = (deps: SubmissionDayDeps, organisation: string, batch: BankBatch) =>
  Effect.gen(function*() {
    const creditor = (yield* Effect.orDie(deps.creditors.get(organisation, batch.creditor))).resource
    const collector = deps.bank.collector(batch.scheme)
    const own = creditor.scheme_identifiers.find((s) => s.scheme === identifierSchemeOf(batch.scheme) && s.status === "active")
    if (collector === undefined) return undefined
    const originator: Originator = {
      creditor: creditor.id,
      name: own?.name ?? creditor.name,
      scheme_identifier: own?.reference ?? collector.scheme_identifier,
      account: collector.account
    }
    return originator
  })

/**
 * Whether a scheme's format carries the items of a group: collections always, a mandate
 * instruction when the format has a record for its action (`mandateActions`: ACH a prenote for a
 * setup; pain.008 none, a SEPA mandate travelling with its first collection).
 */
const carries = (files: SchemeFiles, group: string): boolean => {
  if (!group.startsWith("0:")) return true
  const action = group.split(":")[2]
  const actions = files.submission.mandateActions
  return actions === undefined || actions.some((a) => a === action)
}

/** An open batch closed into a submission (or, when its format carries none of its items, into none). */
const closeBatch = (deps: SubmissionDayDeps, organisation: string, batch: Versioned<BankBatch>) =>
  deps.unitOfWork(Effect.gen(function*() {
    const b = batch.resource
    const files = schemeFilesFor(b.scheme)
    // Only setup instructions are queued (`queue.ts`), so the mandates counted are setups.
    const item_count = b.collection_count + (carries(files, "0:W:setup") ? b.mandate_count : 0)
    const originator = item_count === 0 ? undefined : yield* originatorOf(deps, organisation, b)
    if (item_count > 0 && originator === undefined) {
      return yield* Effect.logWarning(SUBMISSION_WAITS).pipe(Effect.annotateLogs({ organisation, batch: b.id, reason: `the bank collects no ${b.scheme}` }))
    }
    if (originator === undefined) {
      yield* Effect.orDie(save(deps.batches, organisation, batch, { ...b, closed: true }))
      return
    }
    const made_on = yield* today()
    const submission: BankSubmission = {
      id: yield* newId("bank_submission"),
      created_at: yield* now,
      scheme: b.scheme,
      file_format: files.submission.format,
      processing_date: calendarFor(b.scheme).nextBusinessDay(made_on),
      made_on,
      item_count,
      total_amount: b.total_amount,
      currency: CURRENCY_OF_MANDATE_SCHEME[b.scheme],
      file_size: null,
      file_sha256: null,
      bank_reference: null,
      acknowledged_at: null,
      originator,
      batch: b.id,
      links: { creditor: b.creditor }
    }
    yield* insertNew(deps.submissions, organisation, submission)
    yield* Effect.orDie(save(deps.batches, organisation, batch, { ...b, closed: true, submission: submission.id }))
  }))

const decodeSnapshot = Schema.decodeUnknownSync(SnapshotJson)
const decoder = new TextDecoder()

/** An item's snapshot, as the file states it; one that does not open (another key, altered) is a defect. */
const snapshotOf = (deps: SubmissionDayDeps, organisation: string, item: BankItem) => {
  const plain = deps.vault.openBytes(organisation, itemContextOf(item.id, item.attempt), Buffer.from(item.sealed, "base64"))
  return plain === undefined ? Effect.die(new Error(`bank item ${item.id}: its snapshot does not open`)) : Effect.succeed(decodeSnapshot(decoder.decode(plain)))
}

/** The submission's file, written from its batch's snapshots in `itemSortKey` order, then its digest kept. */
const writeFile = (deps: SubmissionDayDeps, organisation: string, current: Versioned<BankSubmission>) =>
  Effect.gen(function*() {
    const s = current.resource
    const batch = (yield* Effect.orDie(deps.batches.get(organisation, s.batch))).resource
    const files = schemeFilesFor(s.scheme)
    const header: SubmissionHeader = {
      id: s.id,
      scheme: s.scheme,
      format: s.file_format,
      currency: s.currency,
      processing_date: s.processing_date,
      created_at: s.created_at,
      originator: s.originator,
      item_count: s.item_count,
      total_amount: s.total_amount
    }
    const writer = files.submission.writer(header)
    const out = fileWriter(deps, organisation, s.id)
    yield* out.write(writer.begin())
    const groups = [...batch.groups].sort().filter((group) => carries(files, group))
    for (const group of groups) {
      yield* eachInChunks(deps.items, organisation, { render: eq(`${batch.id}|${group}`) }, (chunk) =>
        Effect.forEach(chunk, ({ resource: item }) => Effect.flatMap(snapshotOf(deps, organisation, item), (snapshot) => out.write(writer.item(snapshot))), { discard: true }))
    }
    const tail = writer.end()
    if (isFileFormatError(tail)) return yield* Effect.die(new Error(`submission ${s.id}: ${tail.location}: ${tail.message}`))
    yield* out.write(tail)
    const digest = yield* out.end()
    return yield* deps.unitOfWork(Effect.orDie(save(deps.submissions, organisation, current, { ...s, file_size: digest.size, file_sha256: digest.sha256 })))
  })

/** A submission as its bank is handed it, its file read from the store. */
export const forBank = (deps: FileDeps, organisation: string, s: BankSubmission): SubmissionForBank => ({
  organisation,
  id: s.id,
  scheme: s.scheme,
  creditor: s.links.creditor,
  originator: s.originator,
  file_format: s.file_format,
  processing_date: s.processing_date,
  created_at: s.created_at,
  item_count: s.item_count,
  total_amount: s.total_amount,
  currency: s.currency,
  // The bank port reads the file as it sends it: a storage fault there is the send's defect.
  file: Stream.orDie(fileBytes(deps, organisation, s.id))
})

/** The written file handed to the bank, and its acknowledgement kept; an unavailable bank is tried again next run. */
const handOver = (deps: SubmissionDayDeps, organisation: string, current: Versioned<BankSubmission>) =>
  Effect.gen(function*() {
    const acknowledged = yield* Effect.result(deps.bank.submit(forBank(deps, organisation, current.resource)))
    if (acknowledged._tag === "Failure") {
      return yield* Effect.logWarning(SUBMISSION_WAITS).pipe(Effect.annotateLogs({ organisation, submission: current.resource.id, reason: acknowledged.failure.message }))
    }
    const acknowledged_at = yield* now
    yield* deps.unitOfWork(Effect.orDie(save(deps.submissions, organisation, current, { ...current.resource, bank_reference: acknowledged.success.reference, acknowledged_at })))
  })

/** A submission still waiting: its file written if it has none, then handed to the bank. */
const finish = (deps: SubmissionDayDeps, organisation: string, current: Versioned<BankSubmission>) =>
  Effect.gen(function*() {
    const written = current.resource.file_sha256 === null ? yield* writeFile(deps, organisation, current) : current
    yield* handOver(deps, organisation, written)
  })

/** One submission's failure is logged and left for the next run; the others go on. */
const isolated = (organisation: string, id: string, work: Effect.Effect<void, StorageFailure>) =>
  Effect.catchCause(work, (cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.interrupt
      : Effect.logError(SUBMISSION_WAITS, Cause.pretty(cause)).pipe(Effect.annotateLogs({ organisation, submission: id })))

export const processSubmissionDay = (deps: SubmissionDayDeps, organisation: string) =>
  Effect.gen(function*() {
    const day = yield* today()
    yield* eachInChunks(deps.batches, organisation, { open_on: { op: "range", lte: day } }, (chunk) =>
      Effect.forEach(chunk, (batch) => isolated(organisation, batch.resource.id, closeBatch(deps, organisation, batch)), { discard: true }))
    yield* eachInChunks(deps.submissions, organisation, { awaiting: oneOf(["file", "bank"]) }, (chunk) =>
      Effect.forEach(chunk, (s) => isolated(organisation, s.resource.id, finish(deps, organisation, s)), { discard: true }))
  })

/** A batch's mandate setups read a page at a time when a bank is told of those no file carries. */
const UNFILED_PAGE = 200

/**
 * The mandate setups queued on `made_on` that their scheme's file does not carry (a SEPA mandate
 * travels with its first collection), a page of a batch at a time: what a bank that checks a
 * mandate when told of it is told (the sandbox, answering for the payer's bank the day after).
 */
export const unfiledOn = (deps: SubmissionDayDeps, organisation: string, made_on: LocalDate): Stream.Stream<UnfiledMandates, StorageError> =>
  scanPages(deps.batches, organisation, { created_at: { op: "range", gte: `${made_on}T00:00:00.000Z`, lt: `${addDays(made_on, 1)}T00:00:00.000Z` } }, UNFILED_PAGE).pipe(
    Stream.flatMap((batches) => Stream.fromIterable(batches.map((b) => b.resource))),
    Stream.flatMap((b) => {
      const files = schemeFilesFor(b.scheme)
      const groups = b.groups.filter((group) => group.startsWith("0:") && !carries(files, group))
      if (groups.length === 0) return Stream.empty
      return Stream.unwrap(Effect.map(originatorOf(deps, organisation, b), (originator) =>
        originator === undefined ? Stream.empty : Stream.fromIterable(groups).pipe(
          Stream.flatMap((group) => scanPages(deps.items, organisation, { render: eq(`${b.id}|${group}`) }, UNFILED_PAGE)),
          Stream.mapEffect((page) => Effect.forEach(page, ({ resource }) => snapshotOf(deps, organisation, resource))),
          Stream.map((snapshots): UnfiledMandates => ({
            organisation,
            id: b.id,
            scheme: b.scheme,
            creditor: b.creditor,
            originator,
            processing_date: calendarFor(b.scheme).nextBusinessDay(b.day),
            created_at: b.created_at,
            currency: CURRENCY_OF_MANDATE_SCHEME[b.scheme],
            items: snapshots.flatMap((item): ReadonlyArray<MandateInstruction> => item.kind === "mandate" ? [item] : [])
          }))
        )))
    })
  )
