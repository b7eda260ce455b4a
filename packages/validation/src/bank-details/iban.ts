import { extractIBAN, validateBIC, validateIBAN, ValidationErrorsBIC, ValidationErrorsIBAN } from "ibantools"

/**
 * IBANs and BICs, through ibantools (ISO 13616 registry formats, the mod-97 check and, where the
 * country has one, the national check of the BBAN). Input is normalised first: people type
 * IBANs in groups of four and in either case.
 */

/** Strips every space and upper-cases: `gb33 bukb 2020 1555 5555 55` -> `GB33BUKB20201555555555`. */
export const normaliseIban = (raw: string): string => raw.replace(/\s+/g, "").toUpperCase()

export const normaliseBic = (raw: string): string => raw.replace(/\s+/g, "").toUpperCase()

const IBAN_MESSAGES: Readonly<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANProvided]: "must not be blank",
  [ValidationErrorsIBAN.NoIBANCountry]: "does not start with the code of a country that issues IBANs",
  [ValidationErrorsIBAN.WrongBBANLength]: "has the wrong length for its country",
  [ValidationErrorsIBAN.WrongBBANFormat]: "has the wrong format for its country",
  [ValidationErrorsIBAN.ChecksumNotNumber]: "has check digits that are not digits",
  [ValidationErrorsIBAN.WrongIBANChecksum]: "has wrong check digits",
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: "fails its country's bank account check",
  [ValidationErrorsIBAN.QRIBANNotAllowed]: "is a QR-IBAN, which cannot be debited"
}

const BIC_MESSAGES: Readonly<Record<ValidationErrorsBIC, string>> = {
  [ValidationErrorsBIC.NoBICProvided]: "must not be blank",
  [ValidationErrorsBIC.NoBICCountry]: "does not contain a known country code",
  [ValidationErrorsBIC.WrongBICFormat]: "must be an ISO 9362 BIC of 8 or 11 characters"
}

export interface ParsedIban {
  /** Electronic form. */
  readonly iban: string
  readonly countryCode: string
  readonly bban: string
  /** The national bank code inside the BBAN, where the registry defines one. */
  readonly bankIdentifier: string | null
  readonly branchIdentifier: string | null
}

export type IbanCheck =
  | { readonly valid: true; readonly value: ParsedIban }
  | { readonly valid: false; readonly messages: ReadonlyArray<string> }

/** Validates an IBAN after normalising it; every failed check is reported. */
export const checkIban = (raw: string): IbanCheck => {
  const iban = normaliseIban(raw)
  const result = validateIBAN(iban, { allowQRIBAN: false })
  if (!result.valid) return { valid: false, messages: result.errorCodes.map((code) => IBAN_MESSAGES[code]) }
  const parts = extractIBAN(iban)
  return {
    valid: true,
    value: {
      iban,
      countryCode: iban.slice(0, 2),
      bban: iban.slice(4),
      bankIdentifier: parts.bankIdentifier ?? null,
      branchIdentifier: parts.branchIdentifier ?? null
    }
  }
}

export type BicCheck = { readonly valid: true; readonly bic: string } | { readonly valid: false; readonly messages: ReadonlyArray<string> }

export const checkBic = (raw: string): BicCheck => {
  const bic = normaliseBic(raw)
  const result = validateBIC(bic)
  return result.valid ? { valid: true, bic } : { valid: false, messages: result.errorCodes.map((code) => BIC_MESSAGES[code]) }
}
