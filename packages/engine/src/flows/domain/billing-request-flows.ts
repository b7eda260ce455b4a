import { Schema } from "effect"
import { ID_PREFIXES, IdOf, Timestamp } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress } from "../../kernel/fields.ts"
import { PayerUri, PrefilledBankAccount, PrefilledCustomerFields } from "../../billing-requests/domain/payer-fields.ts"

/** The customer details prefilled on a flow, as stored and answered (every field present, null when not given). */
export const StoredPrefilledCustomer = Schema.Struct({
  ...StoredAddress,
  company_name: NullableString,
  danish_identity_number: NullableString,
  email: NullableString,
  family_name: NullableString,
  given_name: NullableString,
  swedish_identity_number: NullableString
})
export type StoredPrefilledCustomer = typeof StoredPrefilledCustomer.Type

/**
 * A billing request flow with the real API's fields: the hosted page a payer walks through to
 * complete a billing request, behind `authorisation_url`. It has no status of its own (the
 * billing request has); `session_token` is null until `initialise` makes one.
 */
export const BillingRequestFlow = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  authorisation_url: Schema.String,
  auto_fulfil: Schema.Boolean,
  customer_details_captured: Schema.Boolean,
  exit_uri: NullableString,
  expires_at: Timestamp,
  language: NullableString,
  lock_bank_account: Schema.Boolean,
  lock_currency: Schema.Boolean,
  lock_customer_details: Schema.Boolean,
  prefilled_bank_account: Schema.NullOr(PrefilledBankAccount),
  prefilled_customer: Schema.NullOr(StoredPrefilledCustomer),
  redirect_uri: NullableString,
  session_token: NullableString,
  show_redirect_buttons: Schema.Boolean,
  show_success_redirect_button: Schema.Boolean,
  skip_success_screen: Schema.Boolean,
  links: Schema.Struct({ billing_request: Schema.String })
})
export type BillingRequestFlow = typeof BillingRequestFlow.Type

export const billingRequestFlows = defineResource({
  name: "billing_request_flows",
  idPrefix: ID_PREFIXES.billing_request_flow,
  schema: BillingRequestFlow,
  filters: {
    created_at: (r: BillingRequestFlow) => r.created_at,
    billing_request: (r: BillingRequestFlow) => r.links.billing_request
  }
})

/** The payer's language: an ISO 639-1 code, as the real API takes it. */
export const FlowLanguage = Schema.String.check(Schema.makeFilter((s: string) => /^[a-z]{2}$/.test(s), { message: "must be an ISO 639-1 language code such as en" }))

/** `POST /billing_request_flows`: the body under `billing_request_flows`. */
export const BillingRequestFlowCreateRequest = Schema.Struct({
  auto_fulfil: Schema.optionalKey(Schema.Boolean),
  customer_details_captured: Schema.optionalKey(Schema.Boolean),
  exit_uri: Schema.optionalKey(PayerUri),
  language: Schema.optionalKey(FlowLanguage),
  links: Schema.Struct({ billing_request: IdOf("billing_request") }),
  lock_bank_account: Schema.optionalKey(Schema.Boolean),
  lock_currency: Schema.optionalKey(Schema.Boolean),
  lock_customer_details: Schema.optionalKey(Schema.Boolean),
  prefilled_bank_account: Schema.optionalKey(PrefilledBankAccount),
  prefilled_customer: Schema.optionalKey(Schema.Struct(PrefilledCustomerFields)),
  redirect_uri: Schema.optionalKey(PayerUri),
  show_redirect_buttons: Schema.optionalKey(Schema.Boolean),
  show_success_redirect_button: Schema.optionalKey(Schema.Boolean),
  skip_success_screen: Schema.optionalKey(Schema.Boolean)
})
export type BillingRequestFlowCreateRequest = typeof BillingRequestFlowCreateRequest.Type

