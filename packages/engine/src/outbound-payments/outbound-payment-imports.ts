import { Clock, Context, Effect, Layer } from "effect"
import { decodeAtBoundary, decodeInputEffect, fieldError, type FieldError, type IdGenerator, newId, type NotFound, now, type OperationError, OrganisationId, type StorageError, type Timestamp, timestampToMillis, validationFailed, type ValidationFailed } from "@paykit/core"
import { outboundPaymentImportMachine } from "@paykit/machines"
import { OUTBOUND_PAYMENT_IMPORTS } from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { OutboundPaymentImportEntryRepository, OutboundPaymentImportRepository } from "./repositories.ts"
import {
  AuthorisingUser,
  type EntryValidationErrors,
  type OutboundPaymentImport,
  OutboundPaymentImportCreateRequest,
  type OutboundPaymentImportEntry,
  OutboundPaymentImportEntryListParams,
  OutboundPaymentImportListParams
} from "./domain/outbound-payment-imports.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { OutboundPayments } from "./outbound-payments.ts"
import { applyCreation, captureUnitOfWork, insertNew, save, type UnitOfWork } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import { hostedPageUrl } from "../kernel/hosted-pages.ts"
import { entriesOf, importLinksOf, moveImport, zeroCounts } from "./outbound-payment-import-moves.ts"
import { expireUnauthorised, IMPORT_AUTHORISATION_WINDOW_MILLIS, type ImportDueWork, validatePending } from "./outbound-payment-import-due.ts"
import { optionalSchedule } from "../due-work/deadlines.ts"
import type { DueRequest } from "../due-work/port.ts"

const decodeCreate = decodeAtBoundary(OutboundPaymentImportCreateRequest, OUTBOUND_PAYMENT_IMPORTS)
const decodeList = decodeAtBoundary(OutboundPaymentImportListParams, OUTBOUND_PAYMENT_IMPORTS)
const decodeEntryList = decodeAtBoundary(OutboundPaymentImportEntryListParams, "outbound_payment_import_entries")

/**
 * Where a user reviews and authorises imports: this server's import page
 * (`HOSTED_PAGE_PATHS.outboundPaymentImport`) under this base. The server provides its public URL
 * (`PAYKIT_PUBLIC_URL`); an embedding application may provide its own dashboard's; the default, the
 * empty string, makes the URL a path relative to the server.
 */
export const DashboardBaseUrl = Context.Reference<string>("@paykit/engine/DashboardBaseUrl", {
  defaultValue: () => ""
})

export const authorisationUrlOf = (base: string, organisation: OrganisationId, id: string): string =>
  hostedPageUrl(base, "outboundPaymentImport", { organisation, id })

type Errors = OperationError

/** The storage, ports and services the import use cases work with, taken once when the service is built. */
interface ImportDeps extends ImportDueWork {
  readonly creditors: CreditorRepository["Service"]
  readonly outbound: OutboundPayments["Service"]
}

/** An engine error on one entry as the real API's per-field `validation_errors`. */
const entryErrorsOf = (error: Errors): EntryValidationErrors => {
  if (error._tag !== "ValidationFailed") return { outbound_payment: { recipient_bank_account: [error.message] } }
  const byField: { amount?: Array<string>; reference?: Array<string>; recipient_bank_account?: Array<string> } = {}
  for (const e of error.errors) {
    const key = e.field === "amount" || e.field === "reference" ? e.field : "recipient_bank_account"
    byField[key] = [...(byField[key] ?? []), e.message]
  }
  return { outbound_payment: byField }
}

/** The due-work kinds of an import: its validation, and its authorisation deadline (`due.ts` runs them). */
export const IMPORT_VALIDATION = "import_validation"
export const IMPORT_EXPIRY = "import_expiry"
/** How long after its creation an import is validated: seconds, not the next morning. */
export const IMPORT_VALIDATION_DELAY_MS = 5_000

/**
 * Refuses, at once, entries naming a bank account the organisation does not hold (another's, or
 * none), as an outbound payment's creation does; whether a held account can be paid (enabled,
 * GBP) is the validation's, which runs when the import is checked.
 */
const checkRecipientsHeld = (deps: ImportDeps, organisation: OrganisationId, command: OutboundPaymentImportCreateRequest) =>
  Effect.gen(function*() {
    const errors: Array<FieldError> = []
    for (const [index, item] of command.entry_items.entries()) {
      const held = yield* Effect.match(deps.customerAccounts.get(organisation, item.recipient_bank_account_id), { onFailure: () => false, onSuccess: () => true })
      if (!held) errors.push(fieldError(OUTBOUND_PAYMENT_IMPORTS, ["entry_items", index, "recipient_bank_account_id"], "must be a customer bank account of this organisation"))
    }
    if (errors.length > 0) return yield* validationFailed(errors)
  })

/** Stores the import (created, then validating at once) and its entries. */
const create = Effect.fnUntraced(function*(deps: ImportDeps, organisation: OrganisationId, command: OutboundPaymentImportCreateRequest) {
  const creditor = yield* resolveCreditor(deps.creditors, organisation, OUTBOUND_PAYMENT_IMPORTS, command.links?.creditor)
  yield* checkRecipientsHeld(deps, organisation, command)
  const id = yield* newId("outbound_payment_import")
  const created_at = yield* now
  const batch: Omit<OutboundPaymentImport, "status"> = {
    id,
    created_at,
    amount_sum: command.entry_items.reduce((sum, item) => sum + item.amount, 0),
    authorisation_url: authorisationUrlOf(yield* DashboardBaseUrl, organisation, id),
    currency: "GBP",
    entry_counts: zeroCounts(command.entry_items.length),
    links: { creditor: creditor.resource.id }
  }
  const stored = yield* applyCreation(deps.imports, {
    organisation,
    machine: outboundPaymentImportMachine,
    state: "created",
    resource: batch,
    cause: { origin: "api", cause: "outbound_payment_import_created", description: "Outbound payment import created via the API." },
    links: importLinksOf(batch)
  })
  for (const item of command.entry_items) {
    yield* insertNew(deps.entries, organisation, {
      id: yield* newId("outbound_payment_import_entry"),
      created_at,
      amount: item.amount,
      reference: item.reference ?? null,
      scheme: item.scheme,
      metadata: item.metadata ?? {},
      processed_at: null,
      validation_errors: null,
      verification_result: null,
      links: { outbound_payment_import: id, recipient_bank_account: item.recipient_bank_account_id, outbound_payment: null }
    })
  }
  return yield* moveImport(deps.imports, organisation, stored, "start_validation", {
    origin: "gocardless",
    cause: "outbound_payment_import_validating",
    description: "Validation of the import's entries has begun."
  })
})

/**
 * Entries processed per chunk when an import is authorised: each chunk's payments are created,
 * then approved with one move of the payment account's balance (`OutboundPayments.approveAll`).
 */
export const IMPORT_PROCESSING_CHUNK_SIZE = 100

/**
 * One valid entry of an import being processed becomes an outbound payment, pending approval;
 * answers its id, or undefined when it was refused (the entry keeps the refusal).
 */
const processEntry = Effect.fnUntraced(function*(
  deps: ImportDeps,
  organisation: OrganisationId,
  batch: OutboundPaymentImport,
  entry: Versioned<OutboundPaymentImportEntry>
) {
  const at = yield* now
  const created = yield* Effect.result(deps.outbound.create(organisation, {
    amount: entry.resource.amount,
    scheme: entry.resource.scheme,
    ...(entry.resource.reference === null ? {} : { reference: entry.resource.reference }),
    metadata: entry.resource.metadata,
    links: { creditor: batch.links.creditor, recipient_bank_account: entry.resource.links.recipient_bank_account, outbound_payment_import: batch.id }
  }))
  if (created._tag === "Failure") {
    yield* save(deps.entries, organisation, entry, { ...entry.resource, processed_at: at, validation_errors: entryErrorsOf(created.failure) })
    return undefined
  }
  yield* save(deps.entries, organisation, entry, {
    ...entry.resource,
    processed_at: at,
    links: { ...entry.resource.links, outbound_payment: created.success.id }
  })
  return created.success.id
})

/**
 * A chunk of valid entries: their payments are made, then authorising the import approves them
 * in order while the balance covers them (one balance move for the chunk); one it cannot cover
 * stays pending approval for the creditor to approve once the account is funded.
 */
const processChunk = Effect.fnUntraced(function*(
  deps: ImportDeps,
  organisation: OrganisationId,
  batch: OutboundPaymentImport,
  chunk: ReadonlyArray<Versioned<OutboundPaymentImportEntry>>
) {
  const made: Array<string> = []
  for (const entry of chunk) {
    const id = yield* processEntry(deps, organisation, batch, entry)
    if (id !== undefined) made.push(id)
  }
  yield* deps.outbound.approveAll(organisation, batch.links.creditor, made)
  return made.length
})

/** `items` cut into runs of at most `size`, in order. */
const chunksOf = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

const decodeUser = decodeInputEffect(AuthorisingUser, "user")

/**
 * How long after its authorisation an import still processing is finished by its due row: a
 * process that died between two chunks leaves it processing, and the row (committed with the
 * authorisation) takes it up from the entries not yet processed. Long enough that the row never
 * races a live authorisation of the largest import (seconds); a race would still make nothing
 * twice (each entry's save checks its version, and the chunk that loses rolls back).
 */
export const IMPORT_PROCESSING_RECOVERY_MS = 10 * 60_000
export const IMPORT_PROCESSING = "import_processing"

type Schedule = (request: DueRequest) => Effect.Effect<void, StorageError>

/** The authorisation itself, in one unit of work: the import moves to processing, its recovery row is due. */
const startProcessing = Effect.fnUntraced(function*(deps: ImportDeps, schedule: Schedule, organisation: OrganisationId, id: string, user: string) {
  const by = yield* decodeUser(user)
  const current = yield* deps.imports.get(organisation, id)
  const processing = yield* moveImport(deps.imports, organisation, current, "authorise", {
    origin: "api",
    cause: "outbound_payment_import_authorised",
    description: `The import was authorised in the dashboard by ${by}.`
  })
  yield* schedule({ organisation, kind: IMPORT_PROCESSING, key: id, dueAt: (yield* Clock.currentTimeMillis) + IMPORT_PROCESSING_RECOVERY_MS })
  return processing
})

/** The import ends processed, its counts read from its entries (whoever processed them). */
const finishProcessing = Effect.fnUntraced(function*(deps: ImportDeps, organisation: OrganisationId, id: string) {
  const latest = yield* deps.imports.get(organisation, id)
  if (latest.resource.status !== "processing") return latest.resource
  const entries = yield* entriesOf(deps.entries, organisation, id)
  const processed = entries.filter((e) => e.resource.links.outbound_payment !== null).length
  const failed = entries.filter((e) => e.resource.processed_at !== null && e.resource.links.outbound_payment === null).length
  return yield* moveImport(deps.imports, organisation, latest, "processing_finished", {
    origin: "gocardless",
    cause: "outbound_payment_import_processed",
    description: `${processed} outbound payments were created from the import.`
  }, { ...latest.resource.entry_counts, processed, failed_to_process: failed })
})

/**
 * An authorised import's valid entries not yet processed become payments, a chunk per unit of
 * work (so on PGlite's one connection a request waits behind one chunk, not the import), then the
 * import ends processed. Run by the authorisation, and by the recovery row after a crash.
 */
const processAuthorised = (deps: ImportDeps, run: UnitOfWork, organisation: OrganisationId, id: string) =>
  Effect.gen(function*() {
    const current = yield* deps.imports.get(organisation, id)
    if (current.resource.status !== "processing") return current.resource
    const waiting = (yield* entriesOf(deps.entries, organisation, id))
      .filter((entry) => entry.resource.validation_errors === null && entry.resource.processed_at === null)
    for (const chunk of chunksOf(waiting, IMPORT_PROCESSING_CHUNK_SIZE)) yield* run(processChunk(deps, organisation, current.resource, chunk))
    return yield* run(finishProcessing(deps, organisation, id))
  })

const cancel = Effect.fnUntraced(function*(deps: ImportDeps, organisation: OrganisationId, id: string) {
  const current = yield* deps.imports.get(organisation, id)
  return yield* moveImport(deps.imports, organisation, current, "cancel", {
    origin: "api",
    cause: "outbound_payment_import_cancelled",
    description: "The import was cancelled at your request."
  })
})

export class OutboundPaymentImports extends Context.Service<OutboundPaymentImports, {
  /** Stores the import and its entries and starts validation: answers `validating`. */
  readonly create: (organisation: OrganisationId, command: typeof OutboundPaymentImportCreateRequest.Encoded) => Effect.Effect<OutboundPaymentImport, Errors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<OutboundPaymentImport, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof OutboundPaymentImportListParams.Encoded) => Effect.Effect<Page<OutboundPaymentImport>, ValidationFailed | StorageError>
  /** `GET /outbound_payment_import_entries?outbound_payment_import=IM...` */
  readonly listEntries: (organisation: OrganisationId, params: typeof OutboundPaymentImportEntryListParams.Encoded) => Effect.Effect<Page<OutboundPaymentImportEntry>, ValidationFailed | StorageError>
  /**
   * A dashboard user (named by `user`, not blank) authorises a valid import: it moves to
   * processing, one outbound payment is created (and approved, when the payment account covers
   * it) per entry, and the import ends processed. Not an API endpoint: the dashboard calls it.
   */
  readonly authorise: (organisation: OrganisationId, id: string, user: string) => Effect.Effect<OutboundPaymentImport, Errors>
  readonly cancel: (organisation: OrganisationId, id: string) => Effect.Effect<OutboundPaymentImport, Errors>
  /**
   * Simulator hook: validation of every `validating` import completes. An entry whose recipient
   * account is missing, disabled or not GBP is invalid; every other entry is checked by
   * confirmation of payee. Any invalid entry makes the import invalid.
   */
  readonly validatePending: (organisation: OrganisationId) => Effect.Effect<ReadonlyArray<OutboundPaymentImport>, StorageError>
  /** The recovery row of an authorised import (`IMPORT_PROCESSING`): processing a crash cut off is finished. */
  readonly finishProcessing: (organisation: OrganisationId, id: string) => Effect.Effect<void, StorageError>
  /** Simulator hook: imports not authorised within the window are cancelled (`expired`). */
  readonly expireUnauthorised: (organisation: OrganisationId, now: Timestamp) => Effect.Effect<ReadonlyArray<OutboundPaymentImport>, StorageError>
}>()("@paykit/engine/OutboundPaymentImports") {
  static readonly layer: Layer.Layer<
    OutboundPaymentImports,
    never,
    | OutboundPaymentImportRepository
    | OutboundPaymentImportEntryRepository
    | CreditorRepository
    | CustomerBankAccountRepository
    | NameVerifier
    | OutboundPayments
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    OutboundPaymentImports,
    Effect.gen(function*() {
      const deps: ImportDeps = {
        imports: yield* OutboundPaymentImportRepository,
        entries: yield* OutboundPaymentImportEntryRepository,
        creditors: yield* CreditorRepository,
        customerAccounts: yield* CustomerBankAccountRepository,
        verifier: yield* NameVerifier,
        outbound: yield* OutboundPayments,
        eachItem: yield* captureDailyItems,
        transactor: yield* Transactor
      }
      const run = yield* captureUnitOfWork
      const schedule = yield* optionalSchedule
      return OutboundPaymentImports.of({
        // Validation seconds after creation and the authorisation window's end are due work,
        // committed with the import.
        create: (o, command) =>
          Effect.flatMap(decodeCreate(command), (c) => run(Effect.tap(create(deps, o, c), (i) => {
            const created = timestampToMillis(i.created_at)
            return Effect.andThen(
              schedule({ organisation: o, kind: IMPORT_VALIDATION, key: i.id, dueAt: created + IMPORT_VALIDATION_DELAY_MS }),
              schedule({ organisation: o, kind: IMPORT_EXPIRY, key: i.id, dueAt: created + IMPORT_AUTHORISATION_WINDOW_MILLIS })
            )
          }))),
        get: (o, id) => Effect.map(deps.imports.get(o, id), (v) => v.resource),
        list: (o, plain) => Effect.flatMap(decodeList(plain), (params) => deps.imports.list(o, toListQuery(params, { status: params.status === undefined ? undefined : eq(params.status) }))),
        listEntries: (o, plain) => Effect.flatMap(decodeEntryList(plain), (params) => deps.entries.list(o, toListQuery(params, { outbound_payment_import: eq(params.outbound_payment_import) }))),
        authorise: (o, id, user) => Effect.andThen(run(startProcessing(deps, schedule, o, id, user)), processAuthorised(deps, run, o, id)),
        cancel: (o, id) => run(cancel(deps, o, id)),
        validatePending: (o) => validatePending(deps, o),
        expireUnauthorised: (o, at) => expireUnauthorised(deps, o, at),
        finishProcessing: (o, id) => Effect.asVoid(Effect.orDie(processAuthorised(deps, run, o, id)))
      })
    })
  )
}
