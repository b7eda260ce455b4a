import type { MandatePdfScheme } from "@paykit/validation"
import type { MandateDocument, PdfLanguage } from "../domain/mandate-pdfs.ts"
import { LABELS, type Labels } from "./labels.ts"

/**
 * A form as the renderer draws it: a title, sections of labelled fields (a null value is a blank
 * to fill in by hand), the scheme's mandatory wording, and boxed notices (the Direct Debit
 * Guarantee). Each scheme's text says what goes where, in each language it is written in.
 */

export type Row = readonly [label: string, value: string | null]

export interface Section {
  readonly heading: string
  readonly rows: ReadonlyArray<Row>
}

export interface Notice {
  readonly heading: string
  readonly paragraphs: ReadonlyArray<string>
}

export interface Form {
  readonly language: PdfLanguage
  readonly title: string
  readonly subtitle: string | null
  readonly sections: ReadonlyArray<Section>
  readonly authorisation: ReadonlyArray<string>
  readonly notices: ReadonlyArray<Notice>
  readonly labels: Labels
  /** The date the payer signed on; null draws a signature line and a date line. */
  readonly signatureDate: string | null
}

/** What a scheme's text provides in one language; the shared fields come from `LABELS`. */
export interface SchemeText {
  readonly title: string
  readonly subtitle?: string
  /** The name of the creditor's identifier on this scheme (service user number, creditor identifier...). */
  readonly identifier: string
  /** The scheme's own word for the mandate reference, where it differs (Bacs: "Reference"). */
  readonly reference?: string
  readonly account: (d: MandateDocument, l: Labels) => ReadonlyArray<Row>
  /** Payer fields only this scheme asks for (identity numbers, a phone number, the IP address). */
  readonly payerExtra?: (d: MandateDocument) => ReadonlyArray<Row>
  readonly authorisation: (creditor: string, d: MandateDocument) => ReadonlyArray<string>
  readonly notices?: (creditor: string, d: MandateDocument) => ReadonlyArray<Notice>
}

export type SchemeTexts = { readonly en: SchemeText } & Partial<Record<PdfLanguage, SchemeText>>

const joined = (lines: ReadonlyArray<string>): string | null => lines.length === 0 ? null : lines.join(", ")

/** The form of a document in its language (the scheme's English where the scheme has no text in it). */
export const formOf = (texts: Readonly<Record<MandatePdfScheme, SchemeTexts>>, d: MandateDocument): Form => {
  const schemeTexts = texts[d.scheme]
  const language = schemeTexts[d.language] === undefined ? "en" : d.language
  const text = schemeTexts[language] ?? schemeTexts.en
  const l = LABELS[language]
  const creditor = d.creditor.name
  return {
    language,
    title: text.title,
    subtitle: text.subtitle ?? null,
    sections: [
      {
        heading: l.creditor,
        rows: [[l.name, creditor], [l.address, joined(d.creditor.address)], [text.identifier, d.creditor.identifier], [text.reference ?? l.mandate_reference, d.mandate_reference]]
      },
      { heading: l.payer, rows: [[l.name, d.payer.name], [l.address, joined(d.payer.address)], ...(text.payerExtra?.(d) ?? [])] },
      { heading: l.account, rows: [[l.account_holder, d.account.holder_name], ...text.account(d, l)] }
    ],
    authorisation: text.authorisation(creditor, d),
    notices: [...(d.account.censored ? [{ heading: l.account, paragraphs: [l.censored] }] : []), ...(text.notices?.(creditor, d) ?? [])],
    labels: l,
    signatureDate: d.signature_date
  }
}
