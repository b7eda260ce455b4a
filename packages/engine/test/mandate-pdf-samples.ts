import type { LocalDate } from "@paykit/core"
import type { MandatePdfScheme } from "@paykit/validation"
import type { MandateDocument, MandatePdfDrawing, PdfLanguage } from "../src/index.ts"

/**
 * One filled-in form per scheme, as a request's details resolve: what the rendering tests read
 * back with pdftotext and what `scripts/mandate-pdf-images.ts` draws into docs/pdfs/. The payers'
 * names are in Polish, Greek and Cyrillic script on purpose: the embedded font must draw them.
 */

const account = (a: Partial<MandateDocument["account"]>): MandateDocument["account"] => ({
  holder_name: null, iban: null, bic: null, account_number: null, bank_code: null, branch_code: null,
  account_type: null, country_code: null, censored: false, ...a
})

const payer = (p: Partial<MandateDocument["payer"]>): MandateDocument["payer"] => ({
  name: null, address: [], phone_number: null, swedish_identity_number: null, danish_identity_number: null, ip_address: null, ...p
})

type Sample = Omit<MandateDocument, "language">

export const SAMPLES: Readonly<Record<MandatePdfScheme, Sample>> = {
  bacs: {
    scheme: "bacs",
    creditor: { name: "Acme Widgets Ltd", address: ["1 High Street", "EC1A 1BB London", "GB"], identifier: "123456" },
    payer: payer({ name: "Zażółć Gęślą Jaźń", address: ["22 Baker Street", "NW1 6XE London", "GB"] }),
    account: account({ holder_name: "Z Jaźń", account_number: "55779911", branch_code: "200000", country_code: "GB" }),
    mandate_reference: "ACME-000123", signature_date: null, subscription: null
  },
  sepa_core: {
    scheme: "sepa_core",
    creditor: { name: "Gärtnerei Müller GmbH", address: ["Hauptstraße 5", "10115 Berlin", "DE"], identifier: "DE98ZZZ09999999999" },
    payer: payer({ name: "Αλέξανδρος Παπαδόπουλος", address: ["Οδός Αθηνάς 12", "10551 Αθήνα", "GR"] }),
    account: account({ holder_name: "A Papadopoulos", iban: "DE89370400440532013000", bic: "COBADEFFXXX", country_code: "DE" }),
    mandate_reference: "MUELLER-42", signature_date: "2026-11-24" as LocalDate, subscription: null
  },
  ach: {
    scheme: "ach",
    creditor: { name: "Lone Star Gyms Inc", address: ["100 Congress Ave", "78701 Austin", "TX", "US"], identifier: "1234567890" },
    payer: payer({ name: "Дмитрий Иванов", address: ["5 Elm St", "02110 Boston", "MA", "US"], ip_address: "203.0.113.7" }),
    account: account({ holder_name: "Dmitry Ivanov", account_number: "2715500356", bank_code: "026073150", account_type: "checking", country_code: "US" }),
    mandate_reference: null, signature_date: null, subscription: { amount: 1500, currency: "USD", frequency: "monthly" }
  },
  autogiro: {
    scheme: "autogiro",
    creditor: { name: "Svensk El AB", address: ["Storgatan 1", "111 51 Stockholm", "SE"], identifier: "5402-9681" },
    payer: payer({ name: "Åsa Lindström", swedish_identity_number: "195510097459" }),
    account: account({ holder_name: "Åsa Lindström", branch_code: "5491", account_number: "0000003", country_code: "SE" }),
    mandate_reference: "ELAB-77001", signature_date: null, subscription: null
  },
  betalingsservice: {
    scheme: "betalingsservice",
    creditor: { name: "Dansk Vand A/S", address: ["Strøget 3", "1160 København", "DK"], identifier: "04567890" },
    payer: payer({ name: "Søren Kierkegaard", danish_identity_number: "0505551234" }),
    account: account({ holder_name: "Søren Kierkegaard", bank_code: "0345", account_number: "0012345678", country_code: "DK" }),
    mandate_reference: "KUNDE-1234", signature_date: null, subscription: null
  },
  becs: {
    scheme: "becs",
    creditor: { name: "Harbour Cafe Pty Ltd", address: ["1 George St", "2000 Sydney", "NSW", "AU"], identifier: "123456" },
    payer: payer({ name: "Nguyễn Thị Lan" }),
    account: account({ holder_name: "Lan Nguyen", branch_code: "082082", account_number: "012345678", country_code: "AU" }),
    mandate_reference: "HARB-00991", signature_date: null, subscription: null
  },
  becs_nz: {
    scheme: "becs_nz",
    creditor: { name: "Kiwi Power Ltd", address: ["10 Queen St", "1010 Auckland", "NZ"], identifier: "0123456" },
    payer: payer({ name: "Aroha Ngata", phone_number: "+64 21 555 0123" }),
    account: account({ holder_name: "Aroha Ngata", bank_code: "12", branch_code: "3456", account_number: "0123456", country_code: "NZ" }),
    mandate_reference: "KIWI-55001", signature_date: null, subscription: null
  },
  pad: {
    scheme: "pad",
    creditor: { name: "Maple Internet Inc", address: ["200 Bay St", "M5J 2J1 Toronto", "ON", "CA"], identifier: "PAD-7788" },
    payer: payer({ name: "Élodie Tremblay" }),
    account: account({ holder_name: "Élodie Tremblay", bank_code: "001", branch_code: "12345", account_number: "1234567", country_code: "CA" }),
    mandate_reference: "MAPLE-3321", signature_date: null, subscription: null
  }
}

export const sampleRecord = (scheme: MandatePdfScheme, language: PdfLanguage, created_at = "2026-11-24T10:00:00.000Z"): MandatePdfDrawing => ({
  created_at,
  document: { ...SAMPLES[scheme], language }
})
