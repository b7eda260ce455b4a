import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MANDATE_PDF_SCHEMES, type MandatePdfScheme } from "@paykit/validation"
import fc from "fast-check"
import { type PdfLanguage, SCHEME_LANGUAGES } from "../src/index.ts"
import { pdfLanguageOf } from "../src/mandate-pdfs/document.ts"
import { renderMandatePdf } from "../src/mandate-pdfs/render.ts"
import { SAMPLES, sampleRecord } from "./mandate-pdf-samples.ts"
import { pdfFonts, pdfText } from "./pdf-text.ts"

/**
 * Every scheme's form in every language it is written in, drawn and read back as text with
 * PDF.js (`pdf-text.ts`): the scheme's mandatory wording, the creditor's identifier and the payer's
 * details must all be there, names in any script included.
 */

const render = (scheme: MandatePdfScheme, language: PdfLanguage, createdAt?: string) =>
  Effect.runPromise(renderMandatePdf(sampleRecord(scheme, language, createdAt)))

/** The wording each scheme's form must carry, by language. */
const MANDATORY: Readonly<Record<MandatePdfScheme, Partial<Record<PdfLanguage, ReadonlyArray<string>>>>> = {
  bacs: {
    en: [
      "Instruction to your bank or building society to pay by Direct Debit", "Service user number", "Reference",
      "subject to the safeguards assured by the Direct Debit Guarantee", "The Direct Debit Guarantee",
      "you are entitled to a full and immediate refund", "You can cancel a Direct Debit at any time"
    ]
  },
  sepa_core: {
    en: ["SEPA Direct Debit Mandate", "Creditor identifier", "you authorise (A)", "entitled to a refund", "within 8 weeks"],
    da: ["SEPA Direct Debit-mandat", "Kreditor-id", "tilbagebetaling", "inden for 8 uger"],
    de: ["SEPA-Lastschriftmandat", "Gläubiger-Identifikationsnummer", "Mandatsreferenz", "innerhalb von acht Wochen", "Erstattung"],
    es: ["Orden de domiciliación de adeudo directo SEPA", "Identificador del acreedor", "reembolso", "ocho semanas"],
    fr: ["Mandat de prélèvement SEPA", "Identifiant créancier SEPA", "Référence unique du mandat", "remboursé", "8 semaines"],
    it: ["Mandato per addebito diretto SEPA", "Codice identificativo del creditore", "rimborso", "8 settimane"],
    nl: ["Doorlopende machtiging SEPA", "Incassant ID", "Kenmerk machtiging", "terugboeken", "8 weken"],
    pt: ["Autorização de débito direto SEPA", "Identificação do credor", "reembolso", "8 semanas"],
    sv: ["SEPA-autogiromedgivande", "återbetalning", "8 veckor"]
  },
  ach: {
    en: ["ACH Debit Authorization", "15.00 USD every month", "checking account", "203.0.113.7", "until I revoke it", "Routing number", "Account type"]
  },
  autogiro: {
    en: ["Consent to payment by Autogiro", "Personal identity number", "195510097459", "Clearing number", "revoke"],
    sv: ["Medgivande till betalning via Autogiro", "Personnummer", "195510097459", "Clearingnummer", "återkalla medgivandet"]
  },
  betalingsservice: {
    en: ["Registration for Betalingsservice", "CPR number", "0505551234", "PBS number", "refunded"],
    da: ["Tilmelding til Betalingsservice", "CPR-nummer", "0505551234", "PBS-nummer", "tilbageført"]
  },
  becs: { en: ["Direct Debit Request", "Bulk Electronic Clearing System (BECS)", "Direct Debit Request Service Agreement", "BSB", "User ID"] },
  becs_nz: { en: ["Authority to accept Direct Debits", "registered initiator", "Authorisation code", "+64 21 555 0123"] },
  pad: { en: ["Pre-Authorized Debit (PAD) Agreement", "recourse rights", "reimbursement", "30 days' notice", "Transit number"] }
}

/** The payer's and creditor's details the form must show, whatever its language. */
const detailsOf = (scheme: MandatePdfScheme): ReadonlyArray<string> => {
  const s = SAMPLES[scheme]
  return [
    s.creditor.name, s.creditor.identifier ?? "", s.payer.name ?? "", s.account.holder_name ?? "",
    s.account.iban ?? "", s.account.account_number ?? "", s.account.branch_code ?? "", s.mandate_reference ?? ""
  ].filter((v) => v !== "")
}

describe("mandate PDFs: every scheme and language", () => {
  it("every scheme has the wording of each of its languages checked here", () => {
    for (const scheme of MANDATE_PDF_SCHEMES) expect(Object.keys(MANDATORY[scheme]).sort()).toEqual([...SCHEME_LANGUAGES[scheme]].sort())
  })

  for (const scheme of MANDATE_PDF_SCHEMES) {
    for (const language of SCHEME_LANGUAGES[scheme]) {
      it(`${scheme} in ${language}: mandatory wording and the payer's details`, async () => {
        const text = await pdfText(await render(scheme, language))
        for (const words of [...(MANDATORY[scheme][language] ?? []), ...detailsOf(scheme)]) expect(text).toContain(words)
      })
    }
  }

  it("Polish, Greek and Cyrillic names are drawn with their own letters (the embedded font has them)", async () => {
    expect(await pdfText(await render("bacs", "en"))).toContain("Zażółć Gęślą Jaźń")
    expect(await pdfText(await render("sepa_core", "en"))).toContain("Αλέξανδρος Παπαδόπουλος")
    expect(await pdfText(await render("ach", "en"))).toContain("Дмитрий Иванов")
  })

  it("embeds its font, subset: the reader needs no font of its own", async () => {
    const pdf = await render("sepa_core", "en")
    const fonts = await pdfFonts(pdf)
    expect(fonts.length).toBe(2)
    // A subset's name is six capitals, `+`, the face; its program is in the file.
    for (const font of fonts) expect(font).toEqual({ name: expect.stringMatching(/^[A-Z]{6}\+DejaVuSans(-Bold)?$/), embedded: true })
  })

  it("a language the scheme has no text in falls back to English", async () => {
    expect(await pdfText(await render("bacs", "fr"))).toContain("Instruction to your bank or building society")
  })

  it("a signed form shows its date and no signature line; an unsigned one has both blanks", async () => {
    const signed = await pdfText(await render("sepa_core", "en"))
    expect(signed).toContain("Signed on 2026-11-24")
    expect(signed).not.toContain("Signature Date")
    expect(await pdfText(await render("bacs", "en"))).toContain("Signature Date")
  })

  it("is deterministic: the same content and clock give the same bytes; another creation time, other bytes", async () => {
    const a = await render("sepa_core", "de")
    const b = await Effect.runPromise(renderMandatePdf(sampleRecord("sepa_core", "de")))
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true)
    const c = await render("sepa_core", "de", "2026-11-25T10:00:00.000Z")
    expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false)
  })

})

describe("the form's language (spec rule 4)", () => {
  const language = fc.constantFrom("en", "da", "de", "es", "fr", "it", "nl", "pt", "sv", "pl", "el", "ja", "")
  it("is the first accepted language the scheme's form is written in, else English", () => {
    fc.assert(fc.property(fc.constantFrom(...MANDATE_PDF_SCHEMES), fc.array(language, { maxLength: 5 }), (scheme, accepted) => {
      const supported: ReadonlyArray<string> = SCHEME_LANGUAGES[scheme]
      expect(pdfLanguageOf(scheme, accepted)).toBe(accepted.find((l) => supported.includes(l)) ?? "en")
      expect(supported).toContain(pdfLanguageOf(scheme, accepted))
    }))
  })
})
