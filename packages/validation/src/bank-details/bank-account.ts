import type { Currency, MandateScheme } from "@paykit/core"
import { type RuleIssue, issue } from "../rules.ts"
import { abaRoutingIssues } from "./aba.ts"
import { checkIban } from "./iban.ts"
import { ibanFromLocalDetails } from "./local-iban.ts"
import { compactDigits, hasLocalFormat, LOCAL_FORMATS, type LocalFormat } from "./local-formats.ts"
import { currencyOfCountry, debitSchemesOfCountry } from "./reachability.ts"
import { normaliseSortCode, normaliseUkAccountNumber, passesModulusCheck } from "./uk.ts"

/**
 * One set of bank details (an IBAN, or local details with a country code) checked as a whole and
 * resolved to the account's country, currency, reachable debit schemes and number ending. The
 * same rules serve bank details lookups, mandate PDFs and bank account collection; paths are
 * relative to the object holding the details.
 */

export interface BankDetailsInput {
  readonly iban?: string | null | undefined
  readonly account_number?: string | null | undefined
  readonly bank_code?: string | null | undefined
  readonly branch_code?: string | null | undefined
  readonly country_code?: string | null | undefined
  readonly account_number_suffix?: string | null | undefined
  readonly currency?: string | null | undefined
  readonly account_type?: string | null | undefined
}

export interface BankDetailsOptions {
  /** Bank account collection refuses IBANs of SEK accounts (Autogiro needs local details). */
  readonly rejectSekIban?: boolean
  /** Whether the `currency` and `account_type` fields belong to the request being checked. */
  readonly checkCurrencyAndAccountType?: boolean
}

export interface ResolvedBankAccount {
  readonly country_code: string
  readonly currency: Currency | null
  /** The IBAN given, or built from eurozone local details; null for local-only accounts. */
  readonly iban: string | null
  /** Normalised local details, when given. */
  readonly bank_code: string | null
  readonly branch_code: string | null
  readonly account_number: string | null
  readonly account_number_suffix: string | null
  readonly account_number_ending: string
  readonly available_debit_schemes: ReadonlyArray<MandateScheme>
}

export type BankDetailsResolution =
  | { readonly valid: true; readonly account: ResolvedBankAccount }
  | { readonly valid: false; readonly issues: ReadonlyArray<RuleIssue> }

const given = (s: string | null | undefined): s is string => s !== null && s !== undefined && s !== ""

/** The last 4 characters of an NZD account number, the last 2 of any other. */
export const accountNumberEnding = (accountNumber: string, currency: Currency | null): string =>
  accountNumber.slice(currency === "NZD" ? -4 : -2)

const LOCAL_FIELDS = ["bank_code", "branch_code", "account_number", "account_number_suffix"] as const

const localFormatIssues = (format: LocalFormat, details: Readonly<Record<(typeof LOCAL_FIELDS)[number], string | undefined>>) =>
  LOCAL_FIELDS.flatMap((field): ReadonlyArray<RuleIssue> => {
    const rule = format[field]
    const value = details[field]
    if (rule === undefined) return value === undefined ? [] : [issue([field], "is not used for bank accounts in this country")]
    if (value === undefined) return field === "account_number_suffix" ? [] : [issue([field], "is required")]
    return rule.test(value) ? [] : [issue([field], rule.message)]
  })

/** Checks, and where they hold resolves, one set of bank details. */
export const resolveBankDetails = (input: BankDetailsInput, options: BankDetailsOptions = {}): BankDetailsResolution => {
  const issues: Array<RuleIssue> = []
  const hasLocal = LOCAL_FIELDS.some((f) => given(input[f]))
  const countryGiven = given(input.country_code) ? input.country_code.toUpperCase() : undefined
  let resolved: Omit<ResolvedBankAccount, "currency" | "account_number_ending" | "available_debit_schemes"> | undefined

  if (given(input.iban)) {
    if (hasLocal) issues.push(issue(["iban"], "cannot be given together with local details (account_number, bank_code, branch_code)"))
    const check = checkIban(input.iban)
    if (!check.valid) issues.push(...check.messages.map((m) => issue(["iban"], m)))
    else {
      const country = check.value.countryCode
      if (countryGiven !== undefined && countryGiven !== country) issues.push(issue(["country_code"], `must match the iban's country (${country})`))
      if (options.rejectSekIban === true && country === "SE") issues.push(issue(["iban"], "is not accepted for SEK accounts; give local details"))
      resolved = {
        country_code: country, iban: check.value.iban, bank_code: null, branch_code: null,
        account_number: null, account_number_suffix: null
      }
    }
  } else if (hasLocal) {
    if (countryGiven === undefined) issues.push(issue(["country_code"], "is required with local bank details"))
    else {
      const compact = (s: string | null | undefined) => (given(s) ? compactDigits(s) : undefined)
      const details = {
        bank_code: given(input.bank_code) ? input.bank_code.replace(/\s/g, "").toUpperCase() : undefined,
        branch_code: compact(input.branch_code),
        account_number: compact(input.account_number),
        account_number_suffix: compact(input.account_number_suffix)
      }
      if (hasLocalFormat(countryGiven)) {
        const format: LocalFormat = LOCAL_FORMATS[countryGiven]
        const formatIssues = localFormatIssues(format, details)
        issues.push(...formatIssues)
        if (formatIssues.length === 0 && countryGiven === "GB" && details.branch_code !== undefined && details.account_number !== undefined) {
          const sortCode = normaliseSortCode(details.branch_code)
          const account = normaliseUkAccountNumber(details.account_number)
          if (!passesModulusCheck(sortCode, account)) issues.push(issue(["account_number"], "fails the modulus check for this sort code"))
          details.account_number = account
        }
        if (formatIssues.length === 0 && countryGiven === "US" && details.bank_code !== undefined) {
          issues.push(...abaRoutingIssues(details.bank_code).map((m) => issue(["bank_code"], m)))
        }
        resolved = {
          country_code: countryGiven, iban: null, bank_code: details.bank_code ?? null, branch_code: details.branch_code ?? null,
          account_number: details.account_number ?? null, account_number_suffix: details.account_number_suffix ?? null
        }
      } else {
        const built = ibanFromLocalDetails(countryGiven, details)
        if (built.kind === "unsupported") {
          issues.push(issue(["country_code"], `does not take local bank details (${countryGiven}); give an iban`))
        } else if (built.kind === "invalid") {
          issues.push(issue(["account_number"], `with bank_code and branch_code ${built.message}`))
        } else {
          resolved = {
            country_code: countryGiven, iban: built.iban, bank_code: details.bank_code ?? null, branch_code: details.branch_code ?? null,
            account_number: details.account_number ?? null, account_number_suffix: null
          }
        }
      }
    }
  } else {
    issues.push(issue(["iban"], "or local details (account_number, bank_code, branch_code with country_code) are required"))
  }

  const currency = resolved === undefined ? null : currencyOfCountry(resolved.country_code)
  if (resolved !== undefined && given(input.account_number_suffix) && currency !== "NZD") {
    issues.push(issue(["account_number_suffix"], "is only used for NZD accounts"))
  }
  if (options.checkCurrencyAndAccountType === true && resolved !== undefined) {
    if (given(input.currency) && input.currency !== currency) {
      issues.push(issue(["currency"], currency === null ? `is not available for bank accounts in ${resolved.country_code}` : `must be ${currency} for bank accounts in ${resolved.country_code}`))
    }
    issues.push(...accountTypeIssues(input.account_type, currency))
  }
  if (issues.length > 0 || resolved === undefined) return { valid: false, issues }
  const numberForEnding = resolved.account_number ?? resolved.iban ?? ""
  return {
    valid: true,
    account: {
      ...resolved,
      currency,
      account_number_ending: accountNumberEnding(numberForEnding, currency),
      available_debit_schemes: debitSchemesOfCountry(resolved.country_code)
    }
  }
}

export const ACCOUNT_TYPES = ["savings", "checking"] as const

/** `account_type`: required for USD accounts, forbidden for every other currency. */
export const accountTypeIssues = (accountType: string | null | undefined, currency: Currency | null): ReadonlyArray<RuleIssue> => {
  const hasType = given(accountType)
  if (currency === "USD" && !hasType) return [issue(["account_type"], "is required for USD accounts")]
  if (currency !== "USD" && hasType) return [issue(["account_type"], "is only allowed for USD accounts")]
  return []
}
