import { Effect } from "effect"
import { now } from "@paykit/core"
import { HOSTED_PAGE_PATHS } from "@paykit/engine"
import type { ApiResponse } from "../api-response.ts"
import type { PageRoute } from "../routes.ts"
import { errorPage, pageAt, type PageAnswer } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * Where a mandate PDF's signed URL leads: the PDF `POST /mandate_pdfs` drew and kept, while
 * the link's signature holds and its expiry is ahead on the organisation's clock (the same clock
 * that dated the answer's `expires_at`). A link past its expiry, altered, or made for another
 * PDF is refused with a page saying so (403), before anything is read.
 */

const pdf = (id: string, bytes: Uint8Array): ApiResponse => ({
  status: 200,
  body: "",
  bytes,
  headers: {
    "content-type": "application/pdf",
    "content-disposition": `inline; filename="mandate-${id}.pdf"`,
    // The PDF holds the payer's details: no cache keeps it past the link's life.
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer"
  }
})

const show = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const nowMs = Date.parse(yield* now)
    const { expires, signature } = p.request.query
    if (!services.mandatePdfLinks.verify(p.organisation, p.id, expires, signature, nowMs)) {
      return errorPage(p, 403, p.messages.error_mandate_pdf_link)
    }
    const record = yield* services.mandatePdfs.get(p.organisation, p.id)
    // Erased at its expiry: only a link checked an instant before it gets here.
    if (record.pdf === null) return errorPage(p, 403, p.messages.error_mandate_pdf_link)
    return pdf(record.id, record.pdf)
  })

export const mandatePdfPages = (services: PageServices): ReadonlyArray<PageRoute> => [
  pageAt(services, "GET", HOSTED_PAGE_PATHS.mandatePdf, show(services))
]
