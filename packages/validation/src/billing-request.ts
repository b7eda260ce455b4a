import { Schema } from "effect"
import { SubscriptionRequest, subscriptionRequestIssues } from "@paykit/schedule"
import { Amount, Currency, decodeInput, IdOf, MandateScheme, Metadata } from "@paykit/core"
import { appFeeIssues } from "./app-fee.ts"
import { constraintIssues, MandateConstraints } from "./constraints.ts"
import {
  CURRENCY_OF_MANDATE_SCHEME,
  DEFAULT_PAYMENT_REQUEST_SCHEME,
  isMandateSchemeOfCurrency,
  MANDATE_SCHEMES_BY_CURRENCY,
  PAYMENT_REQUEST_CURRENCIES,
  PAYMENT_REQUEST_SCHEMES,
  PAYMENT_REQUEST_SCHEMES_BY_CURRENCY,
  RECURRING_REQUEST_SCHEMES
} from "./currency-schemes.ts"
import { Description, optionalNullable, PositiveAmount } from "./fields.ts"
import { type Rule, type RuleIssue, issue, under, withRules } from "./rules.ts"

/** POST /billing_requests: the body under `billing_requests`. */
export const BILLING_REQUESTS = "billing_requests"

export const VERIFY_LEVELS = ["minimum", "recommended", "when_available", "always"] as const
export const FUNDS_SETTLEMENTS = ["managed", "direct"] as const
export const AUTHORISATION_SOURCES = ["web", "telephone", "paper"] as const
export const ACH_CONSENT_TYPES = ["one_off", "recurring", "standing"] as const
export const PAD_CONSENT_TYPES = ["single", "recurring", "sporadic"] as const
export const PURPOSE_CODES = [
  "mortgage", "utility", "loan", "dependant_support", "gambling", "retail", "salary", "personal",
  "government", "pension", "tax", "other"
] as const
export const PAYMENT_CONTEXT_CODES = [
  "billing_goods_and_services_in_advance", "billing_goods_and_services_in_arrears", "face_to_face_point_of_sale",
  "ecommerce_merchant_initiated_payment", "transfer_to_self", "transfer_to_third_party"
] as const

export const MandateRequest = Schema.Struct({
  currency: Currency,
  scheme: optionalNullable(MandateScheme),
  verify: Schema.optionalKey(Schema.Literals(VERIFY_LEVELS)),
  metadata: Schema.optionalKey(Metadata),
  reference: optionalNullable(Schema.String),
  description: optionalNullable(Description),
  constraints: optionalNullable(MandateConstraints),
  sweeping: Schema.optionalKey(Schema.Boolean),
  authorisation_source: Schema.optionalKey(Schema.Literals(AUTHORISATION_SOURCES)),
  funds_settlement: Schema.optionalKey(Schema.Literals(FUNDS_SETTLEMENTS)),
  consent_type: optionalNullable(Schema.Literals([...new Set([...ACH_CONSENT_TYPES, ...PAD_CONSENT_TYPES])]))
}).annotate({ identifier: "MandateRequest" })
export type MandateRequest = typeof MandateRequest.Type

export const PaymentRequest = Schema.Struct({
  amount: PositiveAmount,
  currency: Schema.Literals(PAYMENT_REQUEST_CURRENCIES).annotate({ message: "must be GBP or EUR for payment requests" }),
  description: optionalNullable(Description),
  scheme: optionalNullable(Schema.Literals(PAYMENT_REQUEST_SCHEMES)),
  funds_settlement: Schema.optionalKey(Schema.Literals(FUNDS_SETTLEMENTS)),
  app_fee: optionalNullable(Amount),
  metadata: Schema.optionalKey(Metadata),
  reference: optionalNullable(Schema.String),
  retry_if_possible: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "PaymentRequest" })
export type PaymentRequest = typeof PaymentRequest.Type

/** The spec does not show the fields of `instalment_schedule_request`: an object, kept as given. */
export const InstalmentScheduleRequest = Schema.Record(Schema.String, Schema.Unknown)

export const BillingRequestCreateFields = Schema.Struct({
  mandate_request: optionalNullable(MandateRequest),
  payment_request: optionalNullable(PaymentRequest),
  subscription_request: optionalNullable(SubscriptionRequest),
  instalment_schedule_request: optionalNullable(InstalmentScheduleRequest),
  metadata: Schema.optionalKey(Metadata),
  links: Schema.optionalKey(
    Schema.Struct({
      creditor: Schema.optionalKey(IdOf("creditor")),
      customer: Schema.optionalKey(IdOf("customer")),
      customer_bank_account: Schema.optionalKey(IdOf("customer_bank_account"))
    })
  ),
  fallback_enabled: Schema.optionalKey(Schema.Boolean),
  purpose_code: Schema.optionalKey(Schema.Literals(PURPOSE_CODES)),
  payment_purpose_code: Schema.optionalKey(Schema.String),
  payment_context_code: Schema.optionalKey(Schema.Literals(PAYMENT_CONTEXT_CODES))
}).annotate({ identifier: "BillingRequestCreate" })
export type BillingRequestCreate = typeof BillingRequestCreateFields.Type

const present = <A>(a: A | null | undefined): a is A => a !== null && a !== undefined

// ---------------------------------------------------------------------------------------------
// mandate_request

/** The scheme must be one of the currency's (a GBP mandate cannot be on SEPA). */
export const mandateSchemeIssues = (m: MandateRequest): ReadonlyArray<RuleIssue> =>
  present(m.scheme) && !isMandateSchemeOfCurrency(m.scheme, m.currency)
    ? [issue(["scheme"], `is not available for ${m.currency}; use one of ${MANDATE_SCHEMES_BY_CURRENCY[m.currency].join(", ")}`)]
    : []

/** Scheme-specific fields of a mandate request; paths relative to it. */
export const mandateRequestIssues = (m: MandateRequest): ReadonlyArray<RuleIssue> => {
  const scheme = present(m.scheme) ? m.scheme : undefined
  const issues: Array<RuleIssue> = [...mandateSchemeIssues(m)]
  if (scheme === "faster_payments" && m.sweeping === undefined) {
    issues.push(issue(["sweeping"], "is required for Faster Payments mandates"))
  }
  if (m.authorisation_source !== undefined && scheme !== undefined && scheme !== "ach") {
    issues.push(issue(["authorisation_source"], "is only supported for ACH mandates"))
  }
  if (present(m.consent_type) && scheme !== undefined) {
    const allowed: ReadonlyArray<string> | undefined =
      scheme === "ach" ? ACH_CONSENT_TYPES : scheme === "pad" ? PAD_CONSENT_TYPES : undefined
    if (allowed === undefined) issues.push(issue(["consent_type"], "is only supported for ACH and PAD mandates"))
    else if (!allowed.includes(m.consent_type)) {
      issues.push(issue(["consent_type"], `must be one of ${allowed.join(", ")} for ${scheme} mandates`))
    }
  }
  if (present(m.constraints) || scheme === "pay_to" || scheme === "faster_payments") {
    issues.push(...under(["constraints"], constraintIssues(scheme, m.constraints)))
  }
  return issues
}

// ---------------------------------------------------------------------------------------------
// payment_request

/** The scheme of a payment request: the one given, or its currency's default. */
export const paymentRequestScheme = (p: PaymentRequest) => (present(p.scheme) ? p.scheme : DEFAULT_PAYMENT_REQUEST_SCHEME[p.currency])

export const paymentRequestIssues = (p: PaymentRequest, mandate: MandateRequest | undefined): ReadonlyArray<RuleIssue> => {
  const issues: Array<RuleIssue> = []
  if (present(p.scheme) && !PAYMENT_REQUEST_SCHEMES_BY_CURRENCY[p.currency].includes(p.scheme)) {
    issues.push(issue(["scheme"], `is not available for ${p.currency}; use one of ${PAYMENT_REQUEST_SCHEMES_BY_CURRENCY[p.currency].join(", ")}`))
  }
  issues.push(...appFeeIssues(["app_fee"], p.app_fee, p.amount))
  if (present(p.reference)) {
    const payTo = mandate !== undefined && mandate.scheme === "pay_to"
    const directFasterPayments = paymentRequestScheme(p) === "faster_payments" && p.funds_settlement === "direct"
    if (!payTo && !directFasterPayments) {
      issues.push(issue(["reference"], "is only supported for PayTo, or Faster Payments with direct funds settlement"))
    }
  }
  return issues
}

// ---------------------------------------------------------------------------------------------
// The whole request

const recurringRequestIssues = (field: string, mandate: MandateRequest | undefined): ReadonlyArray<RuleIssue> => {
  const scheme = mandate !== undefined && present(mandate.scheme) ? mandate.scheme : undefined
  return scheme !== undefined && RECURRING_REQUEST_SCHEMES.includes(scheme)
    ? []
    : [issue([field], "is only supported with a mandate_request on the ACH or PAD scheme")]
}

/** Every cross-field rule of a billing request create body; paths relative to `billing_requests`. */
export const billingRequestIssues: Rule<BillingRequestCreate> = (br) => {
  const mandate = present(br.mandate_request) ? br.mandate_request : undefined
  const payment = present(br.payment_request) ? br.payment_request : undefined
  const issues: Array<RuleIssue> = []
  if (mandate !== undefined) {
    issues.push(...under(["mandate_request"], mandateRequestIssues(mandate)))
    if (payment !== undefined && !present(mandate.scheme)) {
      issues.push(issue(["mandate_request", "scheme"], "is required when the billing request also has a payment_request"))
    }
  }
  if (payment !== undefined) issues.push(...under(["payment_request"], paymentRequestIssues(payment, mandate)))
  if (present(br.subscription_request)) {
    const s = br.subscription_request
    issues.push(...recurringRequestIssues("subscription_request", mandate))
    issues.push(...under(["subscription_request"], subscriptionRequestIssues(s)))
    const mandateCurrency = mandate?.currency
    if (mandateCurrency !== undefined && s.currency !== mandateCurrency) {
      issues.push(issue(["subscription_request", "currency"], `must match the mandate_request currency (${mandateCurrency})`))
    }
  }
  if (present(br.instalment_schedule_request)) {
    issues.push(...recurringRequestIssues("instalment_schedule_request", mandate))
  }
  return issues
}

export const BillingRequestCreate = withRules(BillingRequestCreateFields, [billingRequestIssues])

/** Decodes a `billing_requests` create body, reporting every field and cross-field failure. */
export const validateBillingRequestCreate = decodeInput(BillingRequestCreate, BILLING_REQUESTS)

/** The currency a mandate scheme collects in, for callers that know only the scheme. */
export const currencyOfMandateScheme = (scheme: MandateScheme) => CURRENCY_OF_MANDATE_SCHEME[scheme]
