import { Schema } from "effect"
import { CountryCode, Currency, decodeInput, Metadata } from "@paykit/core"
import { ACCOUNT_TYPES, resolveBankDetails } from "./bank-details/bank-account.ts"
import { BILLING_REQUESTS } from "./billing-request.ts"
import { Name, NonBlankString } from "./fields.ts"
import { type RuleIssue, issue, withRules } from "./rules.ts"

/** POST /billing_requests/{id}/actions/collect_bank_account: the body under `billing_requests`. */

export const CollectBankAccountFields = Schema.Struct({
  account_holder_name: Schema.optionalKey(Name),
  account_number: Schema.optionalKey(Schema.String),
  account_number_suffix: Schema.optionalKey(Schema.String),
  account_type: Schema.optionalKey(Schema.Literals(ACCOUNT_TYPES)),
  bank_code: Schema.optionalKey(Schema.String),
  branch_code: Schema.optionalKey(Schema.String),
  country_code: Schema.optionalKey(CountryCode),
  currency: Schema.optionalKey(Currency),
  iban: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  pay_id: Schema.optionalKey(NonBlankString)
}).annotate({ identifier: "CollectBankAccount" })
export type CollectBankAccount = typeof CollectBankAccountFields.Type

/**
 * The account holder's name is required (the spec's exception, a bank account token, has no field
 * in this body); a PayTo PayID needs its country; otherwise the bank details must be a valid
 * account whose currency matches and which is not an SEK IBAN.
 */
export const collectBankAccountIssues = (b: CollectBankAccount): ReadonlyArray<RuleIssue> => {
  const issues: Array<RuleIssue> = []
  if (b.account_holder_name === undefined) issues.push(issue(["account_holder_name"], "is required"))
  if (b.pay_id !== undefined) {
    if (b.country_code === undefined) issues.push(issue(["country_code"], "is required with pay_id"))
    return issues
  }
  const resolution = resolveBankDetails(b, { rejectSekIban: true, checkCurrencyAndAccountType: true })
  return resolution.valid ? issues : [...issues, ...resolution.issues]
}

export const CollectBankAccount = withRules(CollectBankAccountFields, [collectBankAccountIssues])

export const validateCollectBankAccount = decodeInput(CollectBankAccount, BILLING_REQUESTS)
