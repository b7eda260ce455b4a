import { Context, Effect, Layer, Stream } from "effect"
import { schemeFilesFor } from "@paykit/bank-files"
import { decodeAtBoundary, type IdGenerator, InvalidState, type LocalDate, type NotFound, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { BankGateway, type SubmissionForBank, type SubmissionQuery, type UnfiledMandates } from "../kernel/ports/bank-gateway.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { BankDetailsVault } from "../customers/bank-details-vault.ts"
import { type BankSubmission, BankSubmissionListParams } from "./domain/bank-submissions.ts"
import { fileBytes } from "./bank-files.ts"
import { forBank, processSubmissionDay, type SubmissionDayDeps, unfiledOn } from "./submission-day.ts"
import { BankBatchRepository, BankFileChunkRepository, BankItemRepository, BankSubmissionRepository, bankStores, scanPages } from "./repositories.ts"

/** A submission's file as it is served: its exact bytes, with the type and name it goes by. */
export interface SubmissionFile {
  readonly submission: BankSubmission
  /** The format's media type (`application/xml` for pain.008, `text/plain` for Standard 18 and NACHA). */
  readonly content_type: string
  /** `<id>.<extension>`. */
  readonly file_name: string
  readonly bytes: Stream.Stream<Uint8Array, StorageError>
}

/** Submissions read a page at a time when handed back to a bank. */
const HANDED_PAGE = 100
const decodeList = decodeAtBoundary(BankSubmissionListParams, "bank_submissions")

export class BankSubmissions extends Context.Service<BankSubmissions, {
  readonly list: (organisation: OrganisationId, params: typeof BankSubmissionListParams.Encoded) => Effect.Effect<Page<BankSubmission>, ValidationFailed | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BankSubmission, NotFound | StorageError>
  /** The file's exact bytes; `InvalidState` (`bank_submission_file_not_written`) while it is still being written. */
  readonly file: (organisation: OrganisationId, id: string) => Effect.Effect<SubmissionFile, NotFound | InvalidState | StorageError>
  /** The submissions handed to the bank, by the day they were made or their processing date, oldest first. */
  readonly handedOver: (organisation: OrganisationId, query: SubmissionQuery) => Stream.Stream<SubmissionForBank, StorageError>
  /** The mandate setups queued on `made_on` that no file carries, a batch's page at a time (`submission-day.ts`). */
  readonly unfiled: (organisation: OrganisationId, made_on: LocalDate) => Stream.Stream<UnfiledMandates, StorageError>
  /** The daily job `bank submissions` (`submission-day.ts`). */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/BankSubmissions") {
  static readonly layer: Layer.Layer<
    BankSubmissions,
    never,
    | BankSubmissionRepository
    | BankItemRepository
    | BankBatchRepository
    | BankFileChunkRepository
    | CreditorRepository
    | BankDetailsVault
    | BankGateway
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    BankSubmissions,
    Effect.gen(function*() {
      const deps: SubmissionDayDeps = {
        ...(yield* bankStores),
        creditors: yield* CreditorRepository,
        vault: yield* BankDetailsVault,
        bank: yield* BankGateway,
        unitOfWork: yield* captureUnitOfWork
      }
      const get = (o: string, id: string) => Effect.map(deps.submissions.get(o, id), (v) => v.resource)
      return BankSubmissions.of({
        list: (o, plain) =>
          Effect.flatMap(decodeList(plain), (params) =>
            deps.submissions.list(o, toListQuery(params, {
              scheme: params.scheme === undefined ? undefined : eq(params.scheme),
              creditor: params.creditor === undefined ? undefined : eq(params.creditor)
            }))),
        get,
        file: (o, id) =>
          Effect.flatMap(get(o, id), (submission) => {
            if (submission.file_sha256 === null) {
              return Effect.fail(new InvalidState({ reason: "bank_submission_file_not_written", message: `the file of ${id} is still being written; it is complete after the daily run that made it` }))
            }
            const files = schemeFilesFor(submission.scheme)
            return Effect.succeed({
              submission,
              content_type: files.submission.contentType,
              file_name: `${id}.${files.submission.extension}`,
              bytes: fileBytes(deps, o, id)
            })
          }),
        handedOver: (o, query) =>
          scanPages(deps.submissions, o, {
            ...(query.made_on === undefined ? {} : { made_on: eq(query.made_on) }),
            ...(query.processing_date === undefined ? {} : { processing_date: eq(query.processing_date) })
          }, HANDED_PAGE).pipe(Stream.flatMap((rows) => Stream.fromIterable(rows.filter((row) => row.resource.acknowledged_at !== null).map((row) => forBank(deps, o, row.resource))))),
        unfiled: (o, made_on) => unfiledOn(deps, o, made_on),
        processDay: (o) => processSubmissionDay(deps, o)
      })
    })
  )
}
