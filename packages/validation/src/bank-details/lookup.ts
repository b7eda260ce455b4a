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
  /** No bank directory is bundled, so the bank's name is never known here: always null. */
  readonly bank_name: string | null
  /**
   * ibantools validates BICs but cannot derive one (an IBAN holds at most the BIC's bank code,
   * never its location code), so without a bank directory this is null rather than a guess.
   */
  readonly bic: string | null
  readonly available_debit_schemes: ReadonlyArray<MandateScheme>
}

export const lookupOf = (account: ResolvedBankAccount): BankDetailsLookup => ({
  bank_name: null,
  bic: null,
  available_debit_schemes: account.available_debit_schemes
})

/**
 * The lookup for a request that `validateBankDetailsLookup` accepted; a request it would reject
 * (bad IBAN, failed modulus check, ...) gets no debit scheme.
 */
export const lookupBankDetails = (r: BankDetailsLookupRequest): BankDetailsLookup => {
  const resolution = resolveBankDetails(r)
  return resolution.valid ? lookupOf(resolution.account) : { bank_name: null, bic: null, available_debit_schemes: [] }
}
