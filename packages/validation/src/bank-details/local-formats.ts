/**
 * Formats of local (non-IBAN) bank details: which of `bank_code`, `branch_code`,
 * `account_number` and `account_number_suffix` a country uses and what each looks like. These
 * are format checks only; where a country has a check-digit algorithm this package implements
 * it is named (UK: modulus checks, US: ABA); the others have none here.
 */

/** Strips the spaces and hyphens people type inside bank numbers. */
export const compactDigits = (raw: string): string => raw.replace(/[\s-]/g, "")

const digits = (min: number, max: number) => (s: string): boolean => new RegExp(`^\\d{${min},${max}}$`).test(s)

export interface FieldFormat {
  readonly test: (s: string) => boolean
  readonly message: string
}

export interface LocalFormat {
  readonly bank_code?: FieldFormat
  readonly branch_code?: FieldFormat
  readonly account_number: FieldFormat
  readonly account_number_suffix?: FieldFormat
}

/**
 * Australian BSB: six digits `AAB-CCC`, institution, state and branch. The state digit (2 ACT/NSW,
 * 3 VIC, 4 QLD, 5 SA/NT, 6 WA, 7 TAS) is read, not enforced: several institutions do not number
 * their BSBs by state (Wide Bay's Bundaberg branch in Queensland is 656-528).
 */
export const BSB_STATES: Readonly<Record<string, string>> = {
  "2": "ACT/NSW", "3": "VIC", "4": "QLD", "5": "SA/NT", "6": "WA", "7": "TAS"
}

export interface BsbParts {
  readonly institution: string
  readonly stateDigit: string
  /** The state the digit stands for, when it is one of the state codes. */
  readonly state: string | null
  readonly branch: string
}

export const isBsb = (s: string): boolean => /^\d{6}$/.test(s)

export const bsbParts = (bsb: string): BsbParts | null =>
  isBsb(bsb)
    ? { institution: bsb.slice(0, 2), stateDigit: bsb.slice(2, 3), state: BSB_STATES[bsb.slice(2, 3)] ?? null, branch: bsb.slice(3) }
    : null

export const LOCAL_FORMATS = {
  /** Sort code in `branch_code`, 8-digit account (6 and 7 digits are padded). */
  GB: {
    branch_code: { test: digits(6, 6), message: "must be a 6-digit sort code" },
    account_number: { test: digits(6, 8), message: "must be 6 to 8 digits" }
  },
  /** ABA routing number in `bank_code`; account numbers up to the 17 digits of a NACHA entry. */
  US: {
    bank_code: { test: digits(9, 9), message: "must be a 9-digit ABA routing number" },
    account_number: { test: digits(1, 17), message: "must be 1 to 17 digits" }
  },
  /** BSB in `branch_code`. */
  AU: {
    branch_code: { test: isBsb, message: "must be a 6-digit BSB" },
    account_number: { test: digits(5, 9), message: "must be 5 to 9 digits" }
  },
  /** Bank (2) - branch (4) - account (7, or 8 with a leading zero) - suffix (2 or 3). */
  NZ: {
    bank_code: { test: digits(2, 2), message: "must be a 2-digit bank number" },
    branch_code: { test: digits(4, 4), message: "must be a 4-digit branch number" },
    account_number: { test: (s: string) => /^(?:\d{7}|0\d{7})$/.test(s), message: "must be 7 digits (or 8 with a leading zero)" },
    account_number_suffix: { test: digits(2, 3), message: "must be 2 or 3 digits" }
  },
  /** Institution number (3) in `bank_code`, transit number (5) in `branch_code`. */
  CA: {
    bank_code: { test: digits(3, 3), message: "must be a 3-digit institution number" },
    branch_code: { test: digits(5, 5), message: "must be a 5-digit transit number" },
    account_number: { test: digits(7, 12), message: "must be 7 to 12 digits" }
  },
  /** Clearing number in `branch_code` (4 digits, Swedbank's 5). */
  SE: {
    branch_code: { test: digits(4, 5), message: "must be a 4 or 5-digit clearing number" },
    account_number: { test: digits(1, 10), message: "must be 1 to 10 digits" }
  },
  /** Registration number in `bank_code`. */
  DK: {
    bank_code: { test: digits(4, 4), message: "must be a 4-digit registration number" },
    account_number: { test: digits(1, 10), message: "must be 1 to 10 digits" }
  }
} as const satisfies Readonly<Record<string, LocalFormat>>

export type LocalFormatCountry = keyof typeof LOCAL_FORMATS

export const hasLocalFormat = (country: string): country is LocalFormatCountry => Object.hasOwn(LOCAL_FORMATS, country)
