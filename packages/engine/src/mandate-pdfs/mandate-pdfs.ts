import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type FeatureNotInstalled, type IdGenerator, invalidField, MANDATE_PDF_URL_LIFE_MS, newId, type NotFound, now, OrganisationId, SCHEME_CURRENCY, type StorageError, type StorageFailure, type Timestamp, timestampFromMillis, timestampToMillis, type ValidationFailed } from "@paykit/core"
import { isMandatePdfScheme, MANDATE_PDFS, MandatePdfCreate, type MandatePdfRequest, type MandatePdfScheme, mandatePdfSchemeOf } from "@paykit/validation"
import { isRemoved } from "../customers/domain/customers.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "../customers/repositories.ts"
import { MandateRepository } from "../mandates/repositories.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { optionalSchedule } from "../due-work/deadlines.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { captureUnitOfWork, insertNew } from "../kernel/support.ts"
import { type MandateDocument, type MandatePdfRecord } from "./domain/mandate-pdfs.ts"
import { mandateDocument, pdfLanguageOf, requestDocument } from "./document.ts"
import { renderMandatePdf } from "./render.ts"
import { MandatePdfRepository } from "./repositories.ts"

const decodeCreate = decodeAtBoundary(MandatePdfCreate, MANDATE_PDFS)

/** The due work erasing a mandate PDF at its `expires_at`, keyed by its id. */
export const MANDATE_PDF_EXPIRY = "mandate_pdf_expiry"

/**
 * `POST /mandate_pdfs`: resolves the form's content (spec rules 1-4), draws the PDF and keeps it,
 * for `MANDATE_PDF_URL_LIFE_MS`, under an id the HTTP layer signs into the answer's URL; opening
 * the URL serves the kept bytes (drawn once, however often it is opened). At `expires_at` due work
 * erases them. `accepted` is the caller's `Accept-Language`, best first.
 */
export class MandatePdfs extends Context.Service<MandatePdfs, {
  readonly create: (organisation: OrganisationId, command: typeof MandatePdfCreate.Encoded, accepted: ReadonlyArray<string>) => Effect.Effect<MandatePdfRecord, ValidationFailed | FeatureNotInstalled | StorageFailure>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<MandatePdfRecord, NotFound | StorageError>
  /** Drops the PDF of `id` (its `MANDATE_PDF_EXPIRY` due work); a record already erased or pruned is left as it is. */
  readonly erase: (organisation: OrganisationId, id: string) => Effect.Effect<void, StorageFailure>
}>()("@paykit/engine/MandatePdfs") {
  static readonly layer: Layer.Layer<
    MandatePdfs,
    never,
    MandatePdfRepository | CreditorRepository | MandateRepository | CustomerRepository | CustomerBankAccountRepository | IdGenerator | EventLog | Transactor
  > = Layer.effect(MandatePdfs, Effect.gen(function*() {
    const deps = {
      pdfs: yield* MandatePdfRepository,
      creditors: yield* CreditorRepository,
      mandates: yield* MandateRepository,
      customers: yield* CustomerRepository,
      accounts: yield* CustomerBankAccountRepository
    }
    const run = yield* captureUnitOfWork
    const schedule = yield* optionalSchedule
    return MandatePdfs.of({
      create: (organisation, input, accepted) =>
        Effect.gen(function*() {
          const command = yield* decodeCreate(input)
          const document = yield* documentOf(deps, organisation, command, accepted)
          const created_at = yield* now
          // Drawn before the unit of work, so no transaction waits on pdfkit; the bytes and their erasure commit together.
          const pdf = yield* renderMandatePdf({ created_at, document })
          return yield* run(Effect.tap(insertPdf(deps, organisation, created_at, pdf), (record) =>
            schedule({ organisation, kind: MANDATE_PDF_EXPIRY, key: record.id, dueAt: timestampToMillis(record.expires_at) })))
        }),
      get: (organisation, id) => Effect.map(deps.pdfs.get(organisation, id), (v) => v.resource),
      erase: (organisation, id) => run(erase(deps, organisation, id))
    })
  }))
}

interface Deps {
  readonly pdfs: MandatePdfRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly customers: CustomerRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
}

const noForm = (scheme: string) => invalidField(MANDATE_PDFS, ["scheme"], `has no mandate form (${scheme})`)

/** The form of an existing mandate (rule 1): another organisation's mandate is as unknown as a made-up one. */
const fromMandate = (deps: Deps, organisation: string, id: string, accepted: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const mandate = (yield* Effect.mapError(deps.mandates.get(organisation, id), () =>
      invalidField(MANDATE_PDFS, ["links", "mandate"], "must be a mandate of this organisation"))).resource
    if (!isMandatePdfScheme(mandate.scheme)) return yield* noForm(mandate.scheme)
    const scheme: MandatePdfScheme = mandate.scheme
    const [creditor, customer, account] = yield* Effect.orDie(Effect.all([
      deps.creditors.get(organisation, mandate.links.creditor),
      deps.customers.get(organisation, mandate.links.customer),
      deps.accounts.get(organisation, mandate.links.customer_bank_account)
    ]))
    // A removed customer's details are erased: a form would be blank where the payer was.
    if (isRemoved(customer.resource)) return yield* invalidField(MANDATE_PDFS, ["links", "mandate"], "belongs to a removed customer")
    return mandateDocument(mandate, scheme, pdfLanguageOf(scheme, accepted), {
      creditor: creditor.resource, customer: customer.resource, account: account.resource
    })
  })

/** The form of a request's own details, blank or filled in (rules 1 and 2; the request was validated). */
const fromRequest = (deps: Deps, organisation: string, r: MandatePdfRequest, accepted: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const scheme = mandatePdfSchemeOf(r)
    if (scheme === undefined || !isMandatePdfScheme(scheme)) return yield* noForm(scheme ?? "none")
    const creditor = yield* resolveCreditor(deps.creditors, organisation, MANDATE_PDFS, r.links?.creditor ?? undefined)
    return requestDocument(r, scheme, pdfLanguageOf(scheme, accepted), creditor.resource, SCHEME_CURRENCY[scheme])
  })

const documentOf = (deps: Deps, organisation: string, r: MandatePdfRequest, accepted: ReadonlyArray<string>): Effect.Effect<MandateDocument, ValidationFailed | StorageFailure> => {
  const mandate = r.links?.mandate
  return mandate === undefined || mandate === null ? fromRequest(deps, organisation, r, accepted) : fromMandate(deps, organisation, mandate, accepted)
}

const insertPdf = (deps: Deps, organisation: string, created_at: Timestamp, pdf: Uint8Array): Effect.Effect<MandatePdfRecord, StorageError, IdGenerator> =>
  Effect.gen(function*() {
    const record: MandatePdfRecord = {
      id: yield* newId("mandate_pdf"),
      created_at,
      expires_at: timestampFromMillis(Date.parse(created_at) + MANDATE_PDF_URL_LIFE_MS),
      pdf
    }
    return (yield* insertNew(deps.pdfs, organisation, record)).resource
  })

const erase = (deps: Deps, organisation: string, id: string): Effect.Effect<void, StorageFailure> =>
  Effect.gen(function*() {
    const found = yield* Effect.option(deps.pdfs.get(organisation, id))
    if (found._tag === "None" || found.value.resource.pdf === null) return
    yield* Effect.orDie(deps.pdfs.update(organisation, { ...found.value.resource, pdf: null }, found.value.version))
  })
