import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { dueDone, type DueWorkDeclarations } from "../due-work/port.ts"
import { MANDATE_PDF_EXPIRY, MandatePdfs } from "./mandate-pdfs.ts"

/**
 * The mandate PDFs' due work: a PDF (and so the payer's details it holds) is erased at its
 * `expires_at`, when its link stops serving it; `retention` removes the emptied record later.
 */
export const mandatePdfDeadlines: Effect.Effect<DueWorkDeclarations, never, MandatePdfs> = Effect.map(MandatePdfs, (pdfs) => ({
  pumps: [],
  kinds: [{ kind: MANDATE_PDF_EXPIRY, run: (item) => Effect.as(pdfs.erase(OrganisationId(item.organisation), item.key), dueDone) }]
}))
