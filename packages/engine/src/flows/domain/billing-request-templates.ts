import { Schema } from "effect"
import { Currency, ID_PREFIXES, IdOf, MandateScheme, Metadata, Timestamp } from "@paykit/core"
import {
  Description,
  isMandateSchemeOfCurrency,
  issue,
  MandateConstraints,
  PAYMENT_REQUEST_CURRENCIES,
  PAYMENT_REQUEST_SCHEMES,
  PAYMENT_REQUEST_SCHEMES_BY_CURRENCY,
  type RuleIssue,
  VERIFY_LEVELS,
  withRules
} from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredMetadata } from "../../kernel/fields.ts"
import { pageFields } from "../../kernel/list-params.ts"
import { PayerUri } from "../../billing-requests/domain/payer-fields.ts"

/**
 * A billing request template with the real API's fields: the mandate and payment request of a
 * billing request kept flat under a name, so one reusable link (`authorisation_url`) can start a
 * billing request for every payer who follows it. `payment_request_amount` is a string of minor
 * units, as the real resource shows it.
 */
export const BillingRequestTemplate = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  updated_at: Timestamp,
  authorisation_url: Schema.String,
  name: NullableString,
  mandate_request_constraints: Schema.NullOr(Schema.toType(MandateConstraints)),
  mandate_request_currency: NullableString,
  mandate_request_description: NullableString,
  mandate_request_metadata: Schema.NullOr(StoredMetadata),
  mandate_request_scheme: NullableString,
  mandate_request_verify: Schema.NullOr(Schema.Literals(VERIFY_LEVELS)),
  metadata: StoredMetadata,
  payment_request_amount: NullableString,
  payment_request_currency: NullableString,
  payment_request_description: NullableString,
  payment_request_metadata: Schema.NullOr(StoredMetadata),
  payment_request_scheme: NullableString,
  redirect_uri: NullableString,
  links: Schema.Struct({ creditor: Schema.String })
})
export type BillingRequestTemplate = typeof BillingRequestTemplate.Type

export const billingRequestTemplates = defineResource({
  name: "billing_request_templates",
  idPrefix: ID_PREFIXES.billing_request_template,
  schema: BillingRequestTemplate,
  filters: {
    created_at: (r: BillingRequestTemplate) => r.created_at,
    payment_request_scheme: (r: BillingRequestTemplate) => r.payment_request_scheme
  }
})

/** An amount in minor units, as the real API's string or as a number: canonicalised to the digits. */
export const TemplateAmount = Schema.Union([Schema.Int, Schema.String]).check(
  Schema.makeFilter((v: number | string) => typeof v === "number" ? v > 0 : /^[1-9]\d{0,11}$/.test(v), {
    message: "must be a positive whole number of minor units (e.g. 1000 for 10.00)"
  })
)

/** The fields a template is made of: create and update take the same ones. */
const templateFields = {
  mandate_request_constraints: Schema.optionalKey(MandateConstraints),
  mandate_request_currency: Schema.optionalKey(Currency),
  mandate_request_description: Schema.optionalKey(Description),
  mandate_request_metadata: Schema.optionalKey(Metadata),
  mandate_request_scheme: Schema.optionalKey(MandateScheme),
  mandate_request_verify: Schema.optionalKey(Schema.Literals(VERIFY_LEVELS)),
  metadata: Schema.optionalKey(Metadata),
  name: Schema.optionalKey(Description),
  payment_request_amount: Schema.optionalKey(TemplateAmount),
  payment_request_currency: Schema.optionalKey(Schema.Literals(PAYMENT_REQUEST_CURRENCIES)),
  payment_request_description: Schema.optionalKey(Description),
  payment_request_metadata: Schema.optionalKey(Metadata),
  payment_request_scheme: Schema.optionalKey(Schema.Literals(PAYMENT_REQUEST_SCHEMES)),
  redirect_uri: Schema.optionalKey(PayerUri)
} as const

const TemplateFields = Schema.Struct(templateFields)
type TemplateFields = typeof TemplateFields.Type

/**
 * The rules between a template's fields, on the template as it will be stored (so an update is
 * checked with the fields it keeps): a mandate scheme must be one of its currency's, a payment
 * request needs its amount and currency together and a scheme of that currency; with both, the
 * mandate scheme is named (as a billing request's rule).
 */
export const templateIssues = (t: TemplateFields): ReadonlyArray<RuleIssue> => {
  const issues: Array<RuleIssue> = []
  if (t.mandate_request_scheme !== undefined) {
    if (t.mandate_request_currency === undefined) issues.push(issue(["mandate_request_currency"], "is required with mandate_request_scheme"))
    else if (!isMandateSchemeOfCurrency(t.mandate_request_scheme, t.mandate_request_currency)) {
      issues.push(issue(["mandate_request_scheme"], `is not available for ${t.mandate_request_currency}`))
    }
  }
  const paymentGiven = t.payment_request_amount !== undefined || t.payment_request_currency !== undefined || t.payment_request_scheme !== undefined
  if (paymentGiven) {
    if (t.payment_request_amount === undefined) issues.push(issue(["payment_request_amount"], "is required for a payment request"))
    if (t.payment_request_currency === undefined) issues.push(issue(["payment_request_currency"], "is required for a payment request"))
    else if (t.payment_request_scheme !== undefined && !PAYMENT_REQUEST_SCHEMES_BY_CURRENCY[t.payment_request_currency].includes(t.payment_request_scheme)) {
      issues.push(issue(["payment_request_scheme"], `is not available for ${t.payment_request_currency}`))
    }
  }
  // As a billing request's rule: a payer asked for both must know the mandate's scheme.
  if (paymentGiven && t.mandate_request_currency !== undefined && t.mandate_request_scheme === undefined) {
    issues.push(issue(["mandate_request_scheme"], "is required when the template also has a payment request"))
  }
  if (!paymentGiven && t.mandate_request_currency === undefined) {
    issues.push(issue(["mandate_request_currency"], "is required when the template has no payment request: a template requests a mandate, a payment or both"))
  }
  return issues
}

/** `POST /billing_request_templates`: the body under `billing_request_templates`. */
export const BillingRequestTemplateCreateRequest = withRules(
  Schema.Struct({ ...templateFields, links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(IdOf("creditor")) })) }),
  [templateIssues]
)
export type BillingRequestTemplateCreateRequest = typeof BillingRequestTemplateCreateRequest.Type

/** `PUT /billing_request_templates/{id}`: the fields to change; the rules are checked on the result. */
export const BillingRequestTemplateUpdateRequest = TemplateFields
export type BillingRequestTemplateUpdateRequest = TemplateFields

/** `GET /billing_request_templates`: pages, and the real API's one filter. */
export const BillingRequestTemplateListParams = Schema.Struct({
  ...pageFields("billing_request_template"),
  payment_request_scheme: Schema.optionalKey(Schema.Literals(PAYMENT_REQUEST_SCHEMES))
})
export type BillingRequestTemplateListParams = typeof BillingRequestTemplateListParams.Type
