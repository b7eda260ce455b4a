import type { SchemeFiles } from "../model.ts"
import { bacsMeaning } from "./reasons.ts"
import { BACS_REPORTS } from "./reports.ts"
import { standard18Reader, standard18Writer } from "./standard18.ts"

export { ADDACS_REASONS, ARUDD_REASONS, AUDDIS_REASONS, type BacsReason, DDICA_REASONS } from "./reasons.ts"
export { BACS_TIME_ZONE, bacsSerialOf } from "./standard18.ts"

/**
 * Bacs' files: submissions as Standard 18 volumes (Direct Debit Instructions and collections),
 * reports as ARUDD, ADDACS, AUDDIS and DDICA. The field-by-field mapping is docs/bank-rails.md.
 */
export const bacsFiles: SchemeFiles = {
  schemes: ["bacs"],
  submission: {
    format: "bacs_standard18",
    contentType: "text/plain; charset=us-ascii",
    extension: "txt",
    writer: standard18Writer,
    reader: standard18Reader
  },
  reports: BACS_REPORTS,
  meaning: bacsMeaning
}
