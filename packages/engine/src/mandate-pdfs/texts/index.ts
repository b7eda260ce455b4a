import type { MandatePdfScheme } from "@paykit/validation"
import type { MandateDocument } from "../domain/mandate-pdfs.ts"
import { type Form, formOf, type SchemeTexts } from "./form.ts"
import { ENGLISH_TEXTS } from "./english.ts"
import { AUTOGIRO_TEXTS, BETALINGSSERVICE_TEXTS } from "./nordic.ts"
import { SEPA_TEXTS } from "./sepa.ts"

/** Every scheme's form texts, by language. */
export const FORM_TEXTS: Readonly<Record<MandatePdfScheme, SchemeTexts>> = {
  ...ENGLISH_TEXTS,
  autogiro: AUTOGIRO_TEXTS,
  betalingsservice: BETALINGSSERVICE_TEXTS,
  sepa_core: SEPA_TEXTS
}

/** The form a document shows. */
export const mandateForm = (d: MandateDocument): Form => formOf(FORM_TEXTS, d)

export type { Form, Notice, Row, Section } from "./form.ts"
