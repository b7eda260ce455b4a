import { Effect } from "effect"
import type { IdGenerator, OperationError } from "@paykit/core"
import type { Customers } from "../collections/customers.ts"
import type { Mandates } from "../collections/mandates.ts"
import { eachInChunks } from "../kernel/daily-items.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { save } from "../kernel/support.ts"
import type { MandateImport, MandateImportEntry, ProcessingErrors } from "./domain/mandate-imports.ts"
import { type ImportDeps, moveImport } from "./mandate-import-rules.ts"

/** The services processing makes payers with, and the units of work it runs each entry in. */
export interface ProcessingDeps extends ImportDeps {
  readonly customers: Customers["Service"]
  readonly mandates: Mandates["Service"]
  readonly run: <A, E>(effect: Effect.Effect<A, E, IdGenerator | EventLog>) => Effect.Effect<A, E>
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
const payerOf = Effect.fnUntraced(function*(deps: ProcessingDeps, organisation: string, batch: MandateImport, entry: MandateImportEntry) {
  const request = yield* Effect.orDie(deps.requests.get(organisation, entry.id))
  const { customer: customerRequest, bank_account, mandate: mandateRequest } = request.resource
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
 * rolled back) the refusal is kept in its `processing_errors`.
 */
const processEntry = Effect.fnUntraced(function*(deps: ProcessingDeps, organisation: string, batch: MandateImport, entry: Versioned<MandateImportEntry>) {
  const made = yield* Effect.result(deps.run(Effect.gen(function*() {
    const links = yield* payerOf(deps, organisation, batch, entry.resource)
    yield* save(deps.entries, organisation, entry, { ...entry.resource, links: { ...entry.resource.links, ...links } })
  })))
  if (made._tag === "Success") return
  yield* deps.run(Effect.asVoid(save(deps.entries, organisation, entry, { ...entry.resource, processing_errors: processingErrorsOf(made.failure) })))
})

/**
 * A submitted import is processed: it moves to processing, each entry becomes a customer, a bank
 * account and a mandate (or keeps why not), and it ends processed.
 */
const processImport = Effect.fnUntraced(function*(deps: ProcessingDeps, organisation: string, batch: Versioned<MandateImport>) {
  const processing = yield* deps.run(moveImport(deps, organisation, batch, "start_processing"))
  yield* eachInChunks(deps.entries, organisation, { mandate_import: eq(processing.id) }, (chunk) =>
    Effect.forEach(chunk, (entry) => Effect.orDie(processEntry(deps, organisation, processing, entry)), { discard: true }))
  const latest = yield* deps.imports.get(organisation, processing.id)
  return yield* deps.run(moveImport(deps, organisation, latest, "finish_processing"))
})

/** The sandbox's processing of every submitted import (due work, seconds after submission). */
export const processSubmitted = (deps: ProcessingDeps, organisation: string) =>
  Effect.gen(function*() {
    const submitted = yield* deps.imports.scan(organisation, { status: eq("submitted") })
    const processed: Array<MandateImport> = []
    for (const batch of submitted) processed.push(yield* Effect.orDie(processImport(deps, organisation, batch)))
    return processed
  })
