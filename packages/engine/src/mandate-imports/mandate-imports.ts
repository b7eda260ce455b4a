import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, InvalidState, newId, type NotFound, now, type OperationError, type OrganisationId, type StorageError, timestampToMillis, validationFailed, type ValidationFailed } from "@paykit/core"
import { mandateImportMachine } from "@paykit/machines"
import { checkCustomerBankDetails } from "../customers/domain/customer-bank-accounts.ts"
import { customerNameErrors } from "../customers/domain/customers.ts"
import { Customers } from "../customers/customers.ts"
import { Mandates } from "../mandates/mandates.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { optionalSchedule } from "../due-work/deadlines.ts"
import { toListQuery } from "../kernel/list-params.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { applyCreation, captureUnitOfWork, insertNew, save } from "../kernel/support.ts"
import { eachInChunks } from "../due-work/daily-items.ts"
import {
  MANDATE_IMPORT_ENTRIES_ROOT,
  MANDATE_IMPORTS_ROOT,
  erasedEntryRequest,
  type MandateImport,
  MandateImportCreateRequest,
  type MandateImportEntry,
  MandateImportEntryCreateRequest,
  MandateImportEntryListParams
} from "./domain/mandate-imports.ts"
import { processSubmitted, type ProcessingDeps } from "./mandate-import-processing.ts"
import { type ImportDeps, moveImport } from "./mandate-import-rules.ts"
import { MandateImportEntryRepository, MandateImportEntryRequestRepository, MandateImportRepository } from "./repositories.ts"

const decodeCreate = decodeAtBoundary(MandateImportCreateRequest, MANDATE_IMPORTS_ROOT)
const decodeEntry = decodeAtBoundary(MandateImportEntryCreateRequest, MANDATE_IMPORT_ENTRIES_ROOT)
const decodeEntryList = decodeAtBoundary(MandateImportEntryListParams, MANDATE_IMPORT_ENTRIES_ROOT)

/** The due-work kind of a submitted import's processing (`mandate-imports/due.ts` runs it). */
export const MANDATE_IMPORT_PROCESSING = "mandate_import_processing"
/** The real sandbox processes a submitted import about ten seconds after its submission. */
export const MANDATE_IMPORT_PROCESSING_DELAY_MS = 10_000

const create = Effect.fnUntraced(function*(deps: ImportDeps & { readonly creditors: CreditorRepository["Service"] }, organisation: string, req: MandateImportCreateRequest) {
  const creditor = yield* resolveCreditor(deps.creditors, organisation, MANDATE_IMPORTS_ROOT, req.links?.creditor)
  const created = yield* applyCreation(deps.imports, {
    organisation,
    machine: mandateImportMachine,
    state: "created",
    resource: { id: yield* newId("mandate_import"), created_at: yield* now, scheme: req.scheme, links: { creditor: creditor.resource.id } },
    cause: { origin: "api", cause: "mandate_import_created", description: "Mandate import created via the API." },
    links: { creditor: creditor.resource.id }
  })
  return created.resource
})

/**
 * Cancels an import still being filled, and deletes the payer's details its entries kept, in the
 * same unit of work (entries cannot be added meanwhile: their write of the import conflicts).
 */
const cancel = Effect.fnUntraced(function*(deps: ImportDeps, organisation: string, id: string) {
  const cancelled = yield* moveImport(deps, organisation, yield* deps.imports.get(organisation, id), "cancel")
  const at = yield* now
  yield* eachInChunks(deps.entries, organisation, { mandate_import: eq(id) }, (chunk) =>
    Effect.forEach(chunk, (entry) =>
      Effect.orDie(Effect.flatMap(deps.requests.get(organisation, entry.resource.id), (request) =>
        save(deps.requests, organisation, request, erasedEntryRequest(request.resource, at)))), { discard: true }))
  return cancelled
})

/**
 * Adds an entry to an import still being filled (`created`). Its customer's names and its bank
 * details are checked now, as the real API does, so a bad entry is refused at once rather than
 * when the import is processed; the details are kept aside for processing.
 */
const addEntry = Effect.fnUntraced(function*(deps: ImportDeps, organisation: string, req: MandateImportEntryCreateRequest) {
  const batch = yield* deps.imports.get(organisation, req.links.mandate_import)
  // A versioned write of the import it read, unchanged: a submit or cancel committed since then
  // makes this unit of work conflict, so no entry lands in an import already submitted.
  yield* save(deps.imports, organisation, batch, batch.resource)
  if (batch.resource.status !== "created") {
    return yield* new InvalidState({
      reason: "mandate_import_not_created",
      message: `The mandate import is ${batch.resource.status}; entries can be added only before it is submitted`,
      links: { mandate_import: batch.resource.id }
    })
  }
  const nameErrors = customerNameErrors(`${MANDATE_IMPORT_ENTRIES_ROOT}/customer`, req.customer)
  if (nameErrors.length > 0) return yield* validationFailed(nameErrors)
  const checked = checkCustomerBankDetails(`${MANDATE_IMPORT_ENTRIES_ROOT}/bank_account`, req.bank_account)
  if ("_tag" in checked) return yield* checked
  const entry: MandateImportEntry = {
    id: yield* newId("mandate_import_entry"),
    created_at: yield* now,
    record_identifier: req.record_identifier ?? null,
    processing_errors: null,
    links: { mandate_import: batch.resource.id }
  }
  yield* insertNew(deps.entries, organisation, entry)
  yield* insertNew(deps.requests, organisation, {
    id: entry.id, created_at: entry.created_at, customer: req.customer, bank_account: req.bank_account, mandate: req.mandate ?? null
  })
  return entry
})

export class MandateImports extends Context.Service<MandateImports, {
  readonly create: (organisation: OrganisationId, command: typeof MandateImportCreateRequest.Encoded) => Effect.Effect<MandateImport, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<MandateImport, NotFound | StorageError>
  /** Ends the adding of entries; the sandbox processes the import seconds later (due work). */
  readonly submit: (organisation: OrganisationId, id: string) => Effect.Effect<MandateImport, OperationError>
  readonly cancel: (organisation: OrganisationId, id: string) => Effect.Effect<MandateImport, OperationError>
  readonly addEntry: (organisation: OrganisationId, command: typeof MandateImportEntryCreateRequest.Encoded) => Effect.Effect<MandateImportEntry, OperationError>
  readonly listEntries: (organisation: OrganisationId, params: typeof MandateImportEntryListParams.Encoded) => Effect.Effect<Page<MandateImportEntry>, ValidationFailed | StorageError>
  /** Processes every submitted import: customers, bank accounts and mandates made from its entries. */
  readonly processSubmitted: (organisation: OrganisationId) => Effect.Effect<ReadonlyArray<MandateImport>, StorageError>
}>()("@paykit/engine/MandateImports") {
  static readonly layer: Layer.Layer<
    MandateImports,
    never,
    | MandateImportRepository
    | MandateImportEntryRepository
    | MandateImportEntryRequestRepository
    | CreditorRepository
    | Customers
    | Mandates
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    MandateImports,
    Effect.gen(function*() {
      const run = yield* captureUnitOfWork
      const deps: ProcessingDeps & { readonly creditors: CreditorRepository["Service"] } = {
        imports: yield* MandateImportRepository,
        entries: yield* MandateImportEntryRepository,
        requests: yield* MandateImportEntryRequestRepository,
        creditors: yield* CreditorRepository,
        customers: yield* Customers,
        mandates: yield* Mandates,
        run
      }
      const schedule = yield* optionalSchedule
      return MandateImports.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(create(deps, o, c))),
        get: (o, id) => Effect.map(deps.imports.get(o, id), (v) => v.resource),
        submit: (o, id) =>
          run(Effect.gen(function*() {
            const submitted = yield* moveImport(deps, o, yield* deps.imports.get(o, id), "submit")
            const at = timestampToMillis(yield* now)
            yield* schedule({ organisation: o, kind: MANDATE_IMPORT_PROCESSING, key: id, dueAt: at + MANDATE_IMPORT_PROCESSING_DELAY_MS })
            return submitted
          })),
        cancel: (o, id) => run(cancel(deps, o, id)),
        addEntry: (o, command) => Effect.flatMap(decodeEntry(command), (c) => run(addEntry(deps, o, c))),
        listEntries: (o, plain) =>
          Effect.flatMap(decodeEntryList(plain), (params) =>
            deps.entries.list(o, toListQuery(params, {
              mandate_import: eq(params.mandate_import),
              status: params.status === undefined ? undefined : eq(params.status)
            }))),
        processSubmitted: (o) => processSubmitted(deps, o)
      })
    })
  )
}
