import { Schema } from "effect"
import { IdOf } from "@paykit/core"
import { CollectBankAccount } from "@paykit/validation"
import { PayerUri } from "../../billing-requests/domain/payer-fields.ts"

/** `POST /bank_authorisations`: the body under `bank_authorisations`. */
export const BankAuthorisationCreateRequest = Schema.Struct({
  redirect_uri: Schema.optionalKey(PayerUri),
  links: Schema.Struct({ billing_request: IdOf("billing_request") })
})
export type BankAuthorisationCreateRequest = typeof BankAuthorisationCreateRequest.Type

/**
 * What the payer's bank reports with an authorisation: the account the payer authorised from.
 * Needed when the billing request's mandate still lacks a bank account (the bank's report
 * completes `collect_bank_account`), so it is checked with collect_bank_account's own Schema.
 */
export const BankAuthorisationOutcomeRequest = Schema.Struct({ bank_account: Schema.optionalKey(CollectBankAccount) })
export type BankAuthorisationOutcomeRequest = typeof BankAuthorisationOutcomeRequest.Type
