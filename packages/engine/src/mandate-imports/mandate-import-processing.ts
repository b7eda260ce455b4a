import { Cause, Effect } from "effect"
import { now, type OperationError, type OrganisationId } from "@paykit/core"
import type { Customers } from "../customers/customers.ts"
import type { Mandates } from "../mandates/mandates.ts"
import { DAILY_ITEM_FAILED, eachInChunks } from "../due-work/daily-items.ts"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { save, type UnitOfWork } from "../kernel/support.ts"
import {
  entryStatusOf,
  erasedEntryRequest,
  type MandateImport,
  type MandateImportEntry,
  type PendingEntryRequest,
  type ProcessingErrors
} from "./domain/mandate-imports.ts"
import { type ImportDeps, moveImport } from "./mandate-import-rules.ts"

/** The services processing makes payers with, and the units of work it runs each entry in. */
export interface ProcessingDeps extends ImportDeps {
  readonly customers: Customers["Service"]
  readonly mandates: Mandates["Service"]
  readonly run: UnitOfWork
}

/** A refusal as the real API's `processing_errors`: messages by field (`base` for the entry as a whole). */
export const processingErrorsOf = (error: OperationError): ProcessingErrors => {
  if (error._tag !== "ValidationFailed") return { base: [error.message] }
  const errors: Record<string, Array<string>> = {}
  for (const e of error.errors) {
    const key = e.field === undefined || e.field === "" ? "base" : e.field
    errors[key] = [...(errors[key] ?? []), e.message]
  }
  return errors
}

/** One entry's customer, bank account and mandate, made through the collections' own use cases. */
const payerOf = Effect.fnUntraced(function*(deps: ProcessingDeps, organisation: OrganisationId, batch: MandateImport, request: PendingEntryRequest) {
  const { customer: customerRequest, bank_account, mandate: mandateRequest } = request
  const customer = yield* deps.customers.create(organisation, customerRequest)
  const account = yield* deps.customers.createBankAccount(organisation, { ...bank_account, links: { customer: customer.id } })
  const mandate = yield* deps.mandates.create(organisation, {
    scheme: batch.scheme,
    ...(mandateRequest?.reference === undefined || mandateRequest.reference === null ? {} : { reference: mandateRequest.reference }),
    ...(mandateRequest?.metadata === undefined ? {} : { metadata: mandateRequest.metadata }),
    ...(mandateRequest?.authorisation_source === undefined ? {} : { authorisation_source: mandateRequest.authorisation_source }),
    links: { customer_bank_account: account.id, creditor: batch.links.creditor }
  })
  return { customer: customer.id, customer_bank_account: account.id, mandate: mandate.id }
})

/**
 * One entry, in a unit of work of its own: its payer is made and linked, or (everything it made
 * rolled back) the refusal is kept in its `processing_errors`. Either way the payer's details it
 * kept are deleted in the unit of work that records the outcome.
 */
const processEntry = Effect.fnUntraced(function*(deps: ProcessingDeps, organisation: OrganisationId, batch: MandateImport, entry: Versioned<MandateImportEntry>) {
  const request = yield* Effect.orDie(deps.requests.get(organisation, entry.resource.id))
  const pending = request.resource
  if (!("bank_account" in pending)) {
    // Deleted only with an outcome, or with a cancelled import, which is never processed.
    return yield* Effect.die(new Error(`mandate import entry ${entry.resource.id} has no outcome and its details are deleted`))
  }
  const erase = Effect.flatMap(now, (at) => save(deps.requests, organisation, request, erasedEntryRequest(pending, at)))
  const made = yield* Effect.result(deps.run(Effect.gen(function*() {
    const links = yield* payerOf(deps, organisation, batch, pending)
    yield* save(deps.entries, organisation, entry, { ...entry.resource, links: { ...entry.resource.links, ...links } })
    yield* erase
  })))
  if (made._tag === "Success") return
  yield* deps.run(Effect.andThen(save(deps.entries, organisation, entry, { ...entry.resource, processing_errors: processingErrorsOf(made.failure) }), erase))
})

/**
 * A submitted import is processed: it moves to processing, each entry not yet done becomes a
 * customer, a bank account and a mandate (or keeps why not), and it ends processed. An import
 * found `processing` (a run stopped half-way) carries on with the entries left.
 */
const processImport = Effect.fnUntraced(function*(deps: ProcessingDeps, organisation: OrganisationId, batch: Versioned<MandateImport>) {
  const processing = batch.resource.status === "submitted" ? yield* deps.run(moveImport(deps, organisation, batch, "start_processing")) : batch.resource
  yield* eachInChunks(deps.entries, organisation, { mandate_import: eq(processing.id) }, (chunk) =>
    Effect.forEach(
      chunk.filter((entry) => entryStatusOf(entry.resource) === null),
      (entry) => Effect.orDie(processEntry(deps, organisation, processing, entry)),
      { discard: true }
    ))
  const latest = yield* deps.imports.get(organisation, processing.id)
  return yield* deps.run(moveImport(deps, organisation, latest, "finish_processing"))
})

/**
 * The sandbox's processing of every submitted import (due work, seconds after submission). An
 * import that cannot be finished is logged and left for the next run; the others go on.
 */
export const processSubmitted = (deps: ProcessingDeps, organisation: OrganisationId) =>
  Effect.gen(function*() {
    const waiting = yield* deps.imports.scan(organisation, { status: oneOf(["submitted", "processing"]) })
    const processed: Array<MandateImport> = []
    for (const batch of waiting) {
      const done = yield* Effect.catchCause(Effect.map(processImport(deps, organisation, batch), (i) => [i]), (cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.as(
            Effect.logError(DAILY_ITEM_FAILED, Cause.pretty(cause)).pipe(Effect.annotateLogs({ job: "mandate imports", organisation, item: batch.resource.id })),
            []
          ))
      processed.push(...done)
    }
    return processed
  })
