import { Schema } from "effect"
import { BillingRequestCreateFields, billingRequestIssues, CollectBankAccount, withRules } from "@paykit/validation"
import { BankAuthorisation } from "../../bank-authorisations/domain/bank-authorisations.ts"
import { BillingRequest } from "../../billing-requests/domain/billing-requests.ts"
import { CollectCustomerDetailsRequest, ConfirmPayerDetailsRequest, SelectInstitutionRequest } from "../../billing-requests/domain/billing-request-commands.ts"
import { PayerUri } from "../../billing-requests/domain/payer-fields.ts"

/** The real API's envelope key of `POST /billing_requests/create_with_actions`, for its body and its answer. */
export const BILLING_REQUEST_WITH_ACTIONS = "billing_request_with_actions"

/** The actions a billing request can be created with, each with its own action's Schema. */
export const BillingRequestCreationActions = Schema.Struct({
  bank_authorisation_redirect_uri: Schema.optionalKey(PayerUri),
  collect_bank_account: Schema.optionalKey(CollectBankAccount),
  collect_customer_details: Schema.optionalKey(CollectCustomerDetailsRequest),
  confirm_payer_details: Schema.optionalKey(ConfirmPayerDetailsRequest),
  create_bank_authorisation: Schema.optionalKey(Schema.Boolean),
  select_institution: Schema.optionalKey(SelectInstitutionRequest)
})
export type BillingRequestCreationActions = typeof BillingRequestCreationActions.Type

/** The body under `billing_request_with_actions`: a billing request's creation fields (with their rules) and `actions`. */
export const BillingRequestWithActionsRequest = withRules(
  Schema.Struct({ ...BillingRequestCreateFields.fields, actions: Schema.optionalKey(BillingRequestCreationActions) }),
  [billingRequestIssues]
)
export type BillingRequestWithActionsRequest = typeof BillingRequestWithActionsRequest.Type

/** The answer: the billing request after its actions, and the bank authorisation when one was asked for. */
export const BillingRequestWithActions = Schema.Struct({
  billing_requests: BillingRequest,
  bank_authorisations: Schema.NullOr(BankAuthorisation)
})
export type BillingRequestWithActions = typeof BillingRequestWithActions.Type
