import type { ReportSniff, SchemeFiles } from "../model.ts"
import { CAMT_054, CAMT_054_NAMESPACE, camt054Reader, camt054Writer } from "./camt054.ts"
import { PAIN_002, PAIN_002_NAMESPACE, pain002Reader, pain002Writer } from "./pain002.ts"
import { PAIN_008, pain008Reader, pain008Writer } from "./pain008.ts"
import { sepaMeaning } from "./reasons.ts"

/**
 * SEPA Core's files: collections written as pain.008.001.02; rejects read (and, for the sandbox
 * bank, written) as pain.002.001.03, returns, refunds and reversals as camt.054.001.02. The field
 * mappings and the reason code table are docs/bank-rails.md's "SEPA Core files".
 */

const XML = "application/xml"

/** A report whose document declares `namespace` (as the default namespace or a prefix's). */
const byNamespace = (format: ReportSniff["format"], namespace: string): ReportSniff => {
  const declared = new RegExp(`^\\uFEFF?\\s*<[\\s\\S]*xmlns(:[\\w.-]+)?\\s*=\\s*["']${namespace.replace(/\./g, "\\.")}["']`)
  return { format, matches: (head) => declared.test(head) }
}

export const sepaFiles: SchemeFiles = {
  schemes: ["sepa_core"],
  submission: {
    format: PAIN_008,
    contentType: XML,
    extension: "xml",
    mandateActions: [],
    writer: pain008Writer,
    reader: pain008Reader
  },
  reports: [
    { format: PAIN_002, contentType: XML, sniff: byNamespace(PAIN_002, PAIN_002_NAMESPACE), reader: pain002Reader, writer: pain002Writer },
    { format: CAMT_054, contentType: XML, sniff: byNamespace(CAMT_054, CAMT_054_NAMESPACE), reader: camt054Reader, writer: camt054Writer }
  ],
  meaning: sepaMeaning
}

export { CAMT_054_NAMESPACE } from "./camt054.ts"
export { PAIN_002_NAMESPACE } from "./pain002.ts"
export { PAIN_008_NAMESPACE } from "./pain008.ts"
export { SEPA_REASON_CODES, SEPA_REFUND_CODES, type SepaReason } from "./reasons.ts"
export { SEPA_MAX_AMOUNT, sepaIdentifier, sepaText } from "./text.ts"
