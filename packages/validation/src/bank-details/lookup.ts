import { bankDataByIBAN } from "bankdata-germany"
import { Schema } from "effect"
import { CountryCode, decodeInput, type MandateScheme } from "@paykit/core"
import { optionalNullable } from "../fields.ts"
import { type RuleIssue, withRules } from "../rules.ts"
import { resolveBankDetails, type ResolvedBankAccount } from "./bank-account.ts"

/** POST /bank_details_lookups: the body under `bank_details_lookups`. */
export const BANK_DETAILS_LOOKUPS = "bank_details_lookups"

export const BankDetailsLookupFields = Schema.Struct({
  iban: optionalNullable(Schema.String),
  account_number: optionalNullable(Schema.String),
  bank_code: optionalNullable(Schema.String),
  branch_code: optionalNullable(Schema.String),
  country_code: optionalNullable(CountryCode),
  account_holder_name: optionalNullable(Schema.String)
}).annotate({ identifier: "BankDetailsLookupCreate" })
export type BankDetailsLookupRequest = typeof BankDetailsLookupFields.Type

export const bankDetailsLookupIssues = (r: BankDetailsLookupRequest): ReadonlyArray<RuleIssue> => {
  const resolution = resolveBankDetails(r)
  return resolution.valid ? [] : resolution.issues
}

export const BankDetailsLookupCreate = withRules(BankDetailsLookupFields, [bankDetailsLookupIssues])

export const validateBankDetailsLookup = decodeInput(BankDetailsLookupCreate, BANK_DETAILS_LOOKUPS)

/** The bank details lookup resource. */
export interface BankDetailsLookup {
  /** The bank's name, where a directory of the account's country is bundled (`bankOf`); else null. */
  readonly bank_name: string | null
  /**
   * The bank's BIC from the same directory. ibantools validates BICs but cannot derive one (an
   * IBAN holds at most the BIC's bank code, never its location code), so elsewhere this is null
   * rather than a guess.
   */
  readonly bic: string | null
  readonly available_debit_schemes: ReadonlyArray<MandateScheme>
}

/** Who holds an account, as far as a bundled directory says. */
export interface BankOfAccount {
  readonly bank_name: string | null
  readonly bic: string | null
}

const UNKNOWN_BANK: BankOfAccount = { bank_name: null, bic: null }

/**
 * The bank of an account. Only Germany's directory is bundled (`bankdata-germany`, the
 * Bundesbank's Bankleitzahlen file, keyed by the Bankleitzahl every German IBAN carries; German
 * local details resolve to their IBAN). No other country's banks can be named: a GB IBAN's bank
 * code is only the BIC's first letters, and sort codes have no bundled directory.
 */
export const bankOf = (account: ResolvedBankAccount): BankOfAccount => {
  if (account.country_code !== "DE" || account.iban === null) return UNKNOWN_BANK
  const found = bankDataByIBAN(account.iban)
  return found === null ? UNKNOWN_BANK : { bank_name: found.bankName, bic: found.bic ?? null }
}

export const lookupOf = (account: ResolvedBankAccount): BankDetailsLookup => ({
  ...bankOf(account),
  available_debit_schemes: account.available_debit_schemes
})

/**
 * The lookup for a request that `validateBankDetailsLookup` accepted; a request it would reject
 * (bad IBAN, failed modulus check, ...) gets no debit scheme.
 */
export const lookupBankDetails = (r: BankDetailsLookupRequest): BankDetailsLookup => {
  const resolution = resolveBankDetails(r)
  return resolution.valid ? lookupOf(resolution.account) : { ...UNKNOWN_BANK, available_debit_schemes: [] }
}
