import { Schema } from "effect"
import { CURRENCIES, ID_PREFIXES, LocalDate, MandateScheme } from "@paykit/core"
import { BILLING_REQUEST_STATUSES, BillingRequestAction } from "@paykit/machines"
import { INTERVAL_UNITS, MONTHS } from "@paykit/schedule"
import {
  AUTHORISATION_SOURCES,
  FUNDS_SETTLEMENTS,
  MandateConstraints,
  PAYMENT_REQUEST_SCHEMES,
  VERIFY_LEVELS, PAYMENT_REQUEST_CURRENCIES } from "@paykit/validation"
import { CustomerBankAccount } from "../../customers/domain/customer-bank-accounts.ts"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableString, StoredAddress, StoredMetadata } from "../../kernel/fields.ts"

/** A customer_billing_detail as a billing request embeds it (the stored record without its link). */
export const EmbeddedBillingDetail = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  ...StoredAddress,
  swedish_identity_number: NullableString,
  danish_identity_number: NullableString,
  ip_address: NullableString,
  schemes: Schema.Array(Schema.String)
})
export type EmbeddedBillingDetail = typeof EmbeddedBillingDetail.Type

/** The customer as a billing request embeds it (the real API's `BillingRequestResourcesCustomer`). */
export const EmbeddedCustomer = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  email: NullableString,
  given_name: NullableString,
  family_name: NullableString,
  company_name: NullableString,
  language: NullableString,
  phone_number: NullableString,
  metadata: StoredMetadata
})
export type EmbeddedCustomer = typeof EmbeddedCustomer.Type

export const StoredMandateRequest = Schema.Struct({
  currency: Schema.Literals(CURRENCIES),
  /** Null while the payer may still choose (mandate-only requests). */
  scheme: Schema.NullOr(MandateScheme),
  verify: Schema.Literals(VERIFY_LEVELS),
  metadata: StoredMetadata,
  reference: NullableString,
  description: NullableString,
  constraints: Schema.NullOr(Schema.toType(MandateConstraints)),
  sweeping: Schema.optionalKey(Schema.Boolean),
  authorisation_source: Schema.optionalKey(Schema.Literals(AUTHORISATION_SOURCES)),
  funds_settlement: Schema.Literals(FUNDS_SETTLEMENTS),
  consent_type: NullableString,
  payer_requested_dual_signature: Schema.Boolean,
  links: Schema.Struct({ mandate: Schema.optionalKey(Schema.String) })
})
export type StoredMandateRequest = typeof StoredMandateRequest.Type

export const StoredPaymentRequest = Schema.Struct({
  amount: Minor,
  currency: Schema.Literals(PAYMENT_REQUEST_CURRENCIES),
  description: NullableString,
  scheme: Schema.Literals(PAYMENT_REQUEST_SCHEMES),
  funds_settlement: Schema.Literals(FUNDS_SETTLEMENTS),
  app_fee: Schema.NullOr(Minor),
  metadata: StoredMetadata,
  reference: NullableString,
  retry_if_possible: Schema.Boolean,
  links: Schema.Struct({ payment: Schema.optionalKey(Schema.String) })
})
export type StoredPaymentRequest = typeof StoredPaymentRequest.Type

/** The real API's `BillingRequestSubscriptionRequest`, as stored once validated. */
export const StoredSubscriptionRequest = Schema.Struct({
  amount: Minor,
  app_fee: Schema.NullOr(Minor),
  count: Schema.NullOr(Schema.Int),
  currency: Schema.Literals(CURRENCIES),
  day_of_month: Schema.NullOr(Schema.Int),
  interval: Schema.Int,
  interval_unit: Schema.Literals(INTERVAL_UNITS),
  metadata: StoredMetadata,
  month: Schema.NullOr(Schema.Literals(MONTHS)),
  name: NullableString,
  payment_reference: NullableString,
  retry_if_possible: Schema.Boolean,
  start_date: Schema.NullOr(LocalDate),
  links: Schema.Struct({ subscription: Schema.optionalKey(Schema.String) })
})
export type StoredSubscriptionRequest = typeof StoredSubscriptionRequest.Type

/**
 * A billing request with the real API's fields. `resources` is refreshed from the customer,
 * billing detail and bank account whenever the request is read. `links.institution` (the
 * institution chosen by `select_institution`) is this engine's addition: the real API keeps it
 * out of sight and shows it on the bank authorisation. `instalment_schedule_request` is always
 * null: this engine refuses it on create (see docs/engine.md).
 */
export const BillingRequest = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  status: Schema.Literals(BILLING_REQUEST_STATUSES),
  mandate_request: Schema.NullOr(StoredMandateRequest),
  payment_request: Schema.NullOr(StoredPaymentRequest),
  subscription_request: Schema.NullOr(StoredSubscriptionRequest),
  instalment_schedule_request: Schema.Null,
  metadata: StoredMetadata,
  fallback_enabled: Schema.Boolean,
  fallback_occurred: Schema.Boolean,
  purpose_code: NullableString,
  payment_purpose_code: NullableString,
  payment_context_code: NullableString,
  actions: Schema.Array(BillingRequestAction),
  resources: Schema.Struct({
    customer: EmbeddedCustomer,
    customer_billing_detail: EmbeddedBillingDetail,
    customer_bank_account: Schema.NullOr(CustomerBankAccount)
  }),
  links: Schema.Struct({
    creditor: Schema.String,
    customer: Schema.String,
    customer_billing_detail: Schema.String,
    customer_bank_account: Schema.optionalKey(Schema.String),
    bank_authorisation: Schema.optionalKey(Schema.String),
    institution: Schema.optionalKey(Schema.String),
    mandate_request_mandate: Schema.optionalKey(Schema.String),
    payment_request_payment: Schema.optionalKey(Schema.String),
    subscription_request_subscription: Schema.optionalKey(Schema.String)
  })
})
export type BillingRequest = typeof BillingRequest.Type

export const billingRequests = defineResource({
  name: "billing_requests",
  idPrefix: ID_PREFIXES.billing_request,
  schema: BillingRequest,
  filters: {
    created_at: (r: BillingRequest) => r.created_at,
    status: (r: BillingRequest) => r.status,
    customer: (r: BillingRequest) => r.links.customer,
    creditor: (r: BillingRequest) => r.links.creditor
  }
})
