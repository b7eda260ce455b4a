import { Schema } from "effect"
import { CountryCode, Currency, Metadata } from "@paykit/core"
import { PayerAddressFields, PayerText, PayerUri } from "./payer-fields.ts"
import { BILLING_REQUEST_STATUSES } from "@paykit/machines"
import type { BillingRequestCreate, CollectBankAccount } from "@paykit/validation"
import { Email, optionalNullable, OptionalName } from "@paykit/validation"
import { idFilter, listFields } from "../../kernel/list-params.ts"
import type { MetadataUpdateRequest } from "@paykit/core"

/**
 * The typed commands of billing requests, each the `.Type` of the Schema the edge decodes the body
 * with (`REQUEST_BODIES.billing_requests`). Create and collect_bank_account are declared in
 * @paykit/validation with their cross-field rules.
 */

export const BillingRequestListParams = Schema.Struct({
  ...listFields("billing_request"),
  customer: idFilter("customer"),
  status: Schema.optionalKey(Schema.Union([Schema.Literals(BILLING_REQUEST_STATUSES), Schema.Array(Schema.Literals(BILLING_REQUEST_STATUSES))]))
})
export type BillingRequestListParams = typeof BillingRequestListParams.Type

/**
 * The customer's fields carry the customer's own rules (email, name lengths), so the customer
 * update that collection makes is valid as decoded here.
 */
export const CollectCustomerDetailsRequest = Schema.Struct({
  customer: Schema.optionalKey(Schema.Struct({
    email: optionalNullable(Email),
    given_name: optionalNullable(OptionalName),
    family_name: optionalNullable(OptionalName),
    company_name: optionalNullable(OptionalName),
    language: PayerText,
    phone_number: PayerText,
    metadata: Schema.optionalKey(Metadata)
  })),
  customer_billing_detail: Schema.optionalKey(Schema.Struct({
    ...PayerAddressFields,
    swedish_identity_number: PayerText,
    danish_identity_number: PayerText,
    ip_address: PayerText
  }))
})
export type CollectCustomerDetailsRequest = typeof CollectCustomerDetailsRequest.Type

export const ConfirmPayerDetailsRequest = Schema.Struct({
  payer_requested_dual_signature: Schema.optionalKey(Schema.Boolean),
  metadata: Schema.optionalKey(Metadata)
})
export type ConfirmPayerDetailsRequest = typeof ConfirmPayerDetailsRequest.Type

export const ChooseCurrencyRequest = Schema.Struct({ currency: Currency, metadata: Schema.optionalKey(Metadata) })
export type ChooseCurrencyRequest = typeof ChooseCurrencyRequest.Type

export const SelectInstitutionRequest = Schema.Struct({ institution: Schema.String, country_code: CountryCode })
export type SelectInstitutionRequest = typeof SelectInstitutionRequest.Type

export const NotifyRequest = Schema.Struct({
  notification_type: Schema.Literals(["email"]),
  redirect_uri: Schema.optionalKey(PayerUri)
})
export type NotifyRequest = typeof NotifyRequest.Type

export type BillingRequestCreateCommand = typeof BillingRequestCreate.Type
export type CollectBankAccountCommand = typeof CollectBankAccount.Type
/** fulfil and cancel: metadata only. */
export type MetadataCommand = typeof MetadataUpdateRequest.Type
