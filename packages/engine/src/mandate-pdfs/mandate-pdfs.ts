import { Context, Effect, Layer } from "effect"
import {
  type IdGenerator, invalidField, MANDATE_PDF_URL_LIFE_MS, newId, type NotFound, now, SCHEME_CURRENCY, timestampFromMillis, type ValidationFailed
} from "@paykit/core"
import { isMandatePdfScheme, MANDATE_PDFS, type MandatePdfRequest, type MandatePdfScheme, mandatePdfSchemeOf } from "@paykit/validation"
import { CustomerBankAccountRepository, CustomerRepository, MandateRepository } from "../collections/repositories.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { captureIdGenerator, insertNew } from "../kernel/support.ts"
import { type MandateDocument, type MandatePdfRecord } from "./domain/mandate-pdfs.ts"
import { mandateDocument, pdfLanguageOf, requestDocument } from "./document.ts"
import { renderMandatePdf } from "./render.ts"
import { MandatePdfRepository } from "./repositories.ts"

/**
 * `POST /mandate_pdfs`: resolves the form's content (spec rules 1-4) and keeps it, for
 * `MANDATE_PDF_URL_LIFE_MS`, under an id the HTTP layer signs into the answer's URL; the PDF is
 * drawn when that URL is opened. `accepted` is the caller's `Accept-Language`, best first.
 */
export class MandatePdfs extends Context.Service<MandatePdfs, {
  readonly create: (organisation: string, command: MandatePdfRequest, accepted: ReadonlyArray<string>) => Effect.Effect<MandatePdfRecord, ValidationFailed>
  readonly get: (organisation: string, id: string) => Effect.Effect<MandatePdfRecord, NotFound>
  readonly render: (record: MandatePdfRecord) => Effect.Effect<Uint8Array>
}>()("@paykit/engine/MandatePdfs") {
  static readonly layer: Layer.Layer<
    MandatePdfs, never, MandatePdfRepository | CreditorRepository | MandateRepository | CustomerRepository | CustomerBankAccountRepository | IdGenerator
  > = Layer.effect(MandatePdfs, Effect.gen(function*() {
    const deps = {
      pdfs: yield* MandatePdfRepository,
      creditors: yield* CreditorRepository,
      mandates: yield* MandateRepository,
      customers: yield* CustomerRepository,
      accounts: yield* CustomerBankAccountRepository
    }
    const provideIds = yield* captureIdGenerator
    return MandatePdfs.of({
      create: (organisation, command, accepted) => provideIds(create(deps, organisation, command, accepted)),
      get: (organisation, id) => Effect.map(deps.pdfs.get(organisation, id), (v) => v.resource),
      render: renderMandatePdf
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

const create = (
  deps: Deps, organisation: string, r: MandatePdfRequest, accepted: ReadonlyArray<string>
): Effect.Effect<MandatePdfRecord, ValidationFailed, IdGenerator> =>
  Effect.gen(function*() {
    const mandate = r.links?.mandate
    const document: MandateDocument = mandate === undefined || mandate === null
      ? yield* fromRequest(deps, organisation, r, accepted)
      : yield* fromMandate(deps, organisation, mandate, accepted)
    const created_at = yield* now
    const record: MandatePdfRecord = {
      id: yield* newId("mandate_pdf"),
      created_at,
      expires_at: timestampFromMillis(Date.parse(created_at) + MANDATE_PDF_URL_LIFE_MS),
      document
    }
    return (yield* insertNew(deps.pdfs, organisation, record)).resource
  })
