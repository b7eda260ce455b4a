import { Effect } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import { decodeRequestEffect } from "@paykit/core"
import { HostedPagesBaseUrl, MandatePdf, MandatePdfs } from "@paykit/engine"
import { MANDATE_PDFS, MandatePdfCreate } from "@paykit/validation"
import { headerOf } from "../api-request.ts"
import { jsonResponse } from "../api-response.ts"
import { declare, type EndpointDeclaration } from "../endpoints.ts"
import { PageSigningSecret } from "../pages/csrf.ts"
import { acceptedLanguages } from "../pages/i18n.ts"
import { mandatePdfLinksFrom } from "../pages/mandate-pdf-links.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { unwrap } from "../write-handlers.ts"

/**
 * `POST /mandate_pdfs`: the body decoded with the spec's rules, the form's content kept by the
 * engine, and the answer's `url` a link to the PDF's page signed until `expires_at`
 * (`pages/mandate-pdf-links.ts`), absolute under the server's public URL as the hosted pages'
 * are. The language is the first of `Accept-Language` the scheme's form is written in, else
 * English. 201, as the schema says (the spec's sample shows 200). Not idempotency-tracked: a
 * creation's 409 names a resource the client then fetches, and a mandate PDF has no GET (the
 * official client fails on it), so each request, keyed or not, makes a fresh PDF; making one
 * changes nothing else.
 */

const services = Effect.gen(function*() {
  return { mandatePdfs: yield* MandatePdfs, mandatePdfLinks: mandatePdfLinksFrom(yield* PageSigningSecret) }
})

const decode = decodeRequestEffect(MandatePdfCreate, MANDATE_PDFS)

const createMandatePdf: EndpointDeclaration<Effect.Success<typeof services>> = declare(
  MANDATE_PDFS,
  HttpApiEndpoint.post("create", `/${MANDATE_PDFS}`, {
    payload: single(MANDATE_PDFS, MandatePdfCreate),
    success: single(MANDATE_PDFS, MandatePdf).pipe(HttpApiSchema.status(201))
  }),
  (s) => (request, caller) =>
    Effect.gen(function*() {
      const command = yield* Effect.flatMap(unwrap(request, MANDATE_PDFS), decode)
      const accepted = acceptedLanguages(headerOf(request, "accept-language") ?? "")
      const record = yield* s.mandatePdfs.create(caller.organisation, command, accepted)
      const url = s.mandatePdfLinks.url(yield* HostedPagesBaseUrl, caller.organisation, record.id, record.expires_at)
      return jsonResponse(201, { [MANDATE_PDFS]: { url, expires_at: record.expires_at } })
    })
)

export const mandatePdfsRoom = routeRoom([MANDATE_PDFS], services, [createMandatePdf])
