import { Schema } from "effect"
import { ID_PREFIXES, LocalDate, Timestamp } from "@paykit/core"
import { ACCOUNT_TYPES, MANDATE_PDF_SCHEMES, MANDATE_PDFS, type MandatePdfScheme, SUBSCRIPTION_FREQUENCIES } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"

/** Every language a mandate form is written in; English is the reference and the fallback. */
export const PDF_LANGUAGES = ["en", "da", "de", "es", "fr", "it", "nl", "pt", "sv"] as const
export type PdfLanguage = (typeof PDF_LANGUAGES)[number]

/** The languages of each scheme's form (spec rule 4): a scheme's legal text exists in these only. */
export const SCHEME_LANGUAGES: Readonly<Record<MandatePdfScheme, ReadonlyArray<PdfLanguage>>> = {
  ach: ["en"],
  autogiro: ["en", "sv"],
  bacs: ["en"],
  becs: ["en"],
  becs_nz: ["en"],
  betalingsservice: ["en", "da"],
  pad: ["en"],
  sepa_core: ["en", "da", "de", "es", "fr", "it", "nl", "pt", "sv"]
}

/** The creditor as its form names it: the name and identifier it has on the scheme. */
export const DocumentCreditor = Schema.Struct({
  name: Schema.String,
  address: Schema.Array(Schema.String),
  /** Bacs service user number, SEPA creditor identifier, BECS user ID, NZ authorisation code...; null while the scheme has not given one. */
  identifier: NullableString
})

/** The payer's bank account; `censored` when it comes from a mandate (the values are endings then). */
export const DocumentAccount = Schema.Struct({
  holder_name: NullableString,
  iban: NullableString,
  bic: NullableString,
  account_number: NullableString,
  bank_code: NullableString,
  branch_code: NullableString,
  account_type: Schema.NullOr(Schema.Literals(ACCOUNT_TYPES)),
  country_code: NullableString,
  censored: Schema.Boolean
})

export const DocumentPayer = Schema.Struct({
  name: NullableString,
  address: Schema.Array(Schema.String),
  phone_number: NullableString,
  swedish_identity_number: NullableString,
  danish_identity_number: NullableString,
  ip_address: NullableString
})

/** Everything a form shows, resolved when the PDF was asked for; the rendering reads nothing else. */
export const MandateDocument = Schema.Struct({
  scheme: Schema.Literals(MANDATE_PDF_SCHEMES),
  language: Schema.Literals(PDF_LANGUAGES),
  creditor: DocumentCreditor,
  payer: DocumentPayer,
  account: DocumentAccount,
  mandate_reference: NullableString,
  signature_date: Schema.NullOr(LocalDate),
  subscription: Schema.NullOr(Schema.Struct({
    amount: Schema.Int,
    currency: Schema.String,
    frequency: Schema.Literals(SUBSCRIPTION_FREQUENCIES)
  }))
})
export type MandateDocument = typeof MandateDocument.Type

/** What the renderer draws: a document, dated when it was asked for (the PDF's creation date). */
export interface MandatePdfDrawing {
  readonly created_at: string
  readonly document: MandateDocument
}

/**
 * A mandate PDF asked for: the PDF, drawn once at creation, and until when its URL serves it. Kept
 * so the URL can be a short signed link (never the payer's details in a query string); no API
 * reads it back. `pdf` is null once erased at `expires_at` (due work; the payer's details go with it).
 */
export const MandatePdfRecord = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  expires_at: Timestamp,
  pdf: Schema.NullOr(Schema.Uint8ArrayFromBase64)
})
export type MandatePdfRecord = typeof MandatePdfRecord.Type

export const mandatePdfs = defineResource({
  name: MANDATE_PDFS,
  idPrefix: ID_PREFIXES.mandate_pdf,
  schema: MandatePdfRecord,
  filters: { created_at: (r: MandatePdfRecord) => r.created_at }
})

/** The answer of `POST /mandate_pdfs` (the client's `MandatePdf`). */
export const MandatePdf = Schema.Struct({ url: Schema.String, expires_at: Timestamp })
export type MandatePdf = typeof MandatePdf.Type
