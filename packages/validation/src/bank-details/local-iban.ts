import { composeIBAN } from "ibantools"
import { checkIban } from "./iban.ts"
import { compactDigits } from "./local-formats.ts"

/**
 * IBANs built from the local details of eurozone countries, as the real API accepts them. Each
 * BBAN layout is the country's own, from the ISO 13616 registry; the IBAN check digits are
 * computed and the result is validated like any IBAN (so the French RIB key and the Spanish and
 * Belgian national check digits are checked too). GB local details are not converted: a GB IBAN
 * needs the bank's BIC code, which no sort code determines without a bank directory.
 */

export interface LocalDetails {
  readonly bank_code?: string | undefined
  readonly branch_code?: string | undefined
  readonly account_number?: string | undefined
}

type BbanBuilder = (d: LocalDetails) => string | null

const all = (d: LocalDetails) => ({
  bank: d.bank_code === undefined ? undefined : compactDigits(d.bank_code).toUpperCase(),
  branch: d.branch_code === undefined ? undefined : compactDigits(d.branch_code),
  account: d.account_number === undefined ? undefined : compactDigits(d.account_number).toUpperCase()
})

const padded = (s: string | undefined, pattern: RegExp, width: number): string | null =>
  s !== undefined && pattern.test(s) && s.length <= width ? s.padStart(width, "0") : null

export const BBAN_BUILDERS: Readonly<Record<string, BbanBuilder>> = {
  /** Bankleitzahl (8) + account (up to 10, zero-padded). */
  DE: (d) => {
    const { bank, account } = all(d)
    const acc = padded(account, /^\d+$/, 10)
    return bank !== undefined && /^\d{8}$/.test(bank) && acc !== null ? bank + acc : null
  },
  /** Bankleitzahl (5) + account (up to 11, zero-padded). */
  AT: (d) => {
    const { bank, account } = all(d)
    const acc = padded(account, /^\d+$/, 11)
    return bank !== undefined && /^\d{5}$/.test(bank) && acc !== null ? bank + acc : null
  },
  /** Bank code (4 letters) + account (up to 10, zero-padded). */
  NL: (d) => {
    const { bank, account } = all(d)
    const acc = padded(account, /^\d+$/, 10)
    return bank !== undefined && /^[A-Z]{4}$/.test(bank) && acc !== null ? bank + acc : null
  },
  /** The 12-digit Belgian account number carries bank code and check digits itself. */
  BE: (d) => {
    const { account } = all(d)
    return account !== undefined && /^\d{12}$/.test(account) ? account : null
  },
  /** Code banque (5) + code guichet (5) + numéro de compte (11) and clé RIB (2). */
  FR: (d) => {
    const { bank, branch, account } = all(d)
    return bank !== undefined && /^\d{5}$/.test(bank) && branch !== undefined && /^\d{5}$/.test(branch) &&
      account !== undefined && /^[A-Z0-9]{11}\d{2}$/.test(account)
      ? bank + branch + account
      : null
  },
  /** Entidad (4) + oficina (4) + dígitos de control (2) and cuenta (10). */
  ES: (d) => {
    const { bank, branch, account } = all(d)
    return bank !== undefined && /^\d{4}$/.test(bank) && branch !== undefined && /^\d{4}$/.test(branch) &&
      account !== undefined && /^\d{12}$/.test(account)
      ? bank + branch + account
      : null
  }
}

export const LOCAL_IBAN_COUNTRIES = Object.keys(BBAN_BUILDERS)

export type LocalIbanResult =
  | { readonly kind: "iban"; readonly iban: string }
  | { readonly kind: "invalid"; readonly message: string }
  | { readonly kind: "unsupported" }

/** The IBAN of a eurozone account given by local details, when the country's layout is known. */
export const ibanFromLocalDetails = (countryCode: string, details: LocalDetails): LocalIbanResult => {
  const build = BBAN_BUILDERS[countryCode]
  if (build === undefined) return { kind: "unsupported" }
  const bban = build(details)
  if (bban === null) return { kind: "invalid", message: `do not have the ${countryCode} local bank details format` }
  const iban = composeIBAN({ countryCode, bban })
  if (iban === null) return { kind: "invalid", message: `do not have the ${countryCode} local bank details format` }
  const check = checkIban(iban)
  return check.valid ? { kind: "iban", iban: check.value.iban } : { kind: "invalid", message: "fail the national bank account check" }
}
