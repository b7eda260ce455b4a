import { Schema } from "effect"
import { ID_PREFIXES, IdOf, Metadata, Timestamp } from "@paykit/core"
import { Description } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredMetadata } from "../../kernel/fields.ts"
import { PayerText, PayerUri, PrefilledBankAccount, PrefilledCustomerFields } from "../../billing-requests/domain/payer-fields.ts"

/** The schemes a redirect flow may be limited to (the real API's `RedirectFlowScheme`). */
export const REDIRECT_FLOW_SCHEMES = ["ach", "autogiro", "bacs", "becs", "becs_nz", "betalingsservice", "pad", "sepa_core"] as const

/**
 * A redirect flow (the legacy hosted mandate setup) with the real API's fields. As the real API
 * does today, it is built on a billing request (`links.billing_request`) with a mandate request
 * and its billing request flow, whose page is the flow's `redirect_url`. `confirmation_url` and
 * `mandate_reference` appear once the flow is completed; `expires_at` is this engine's addition
 * (the real API documents the thirty minutes but does not show the instant).
 */
export const RedirectFlow = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  expires_at: Timestamp,
  description: NullableString,
  session_token: Schema.String,
  scheme: Schema.NullOr(Schema.Literals(REDIRECT_FLOW_SCHEMES)),
  success_redirect_url: Schema.String,
  redirect_url: Schema.String,
  confirmation_url: Schema.optionalKey(Schema.String),
  mandate_reference: Schema.optionalKey(Schema.String),
  metadata: StoredMetadata,
  links: Schema.Struct({
    creditor: Schema.String,
    billing_request: Schema.String,
    customer: Schema.optionalKey(Schema.String),
    customer_bank_account: Schema.optionalKey(Schema.String),
    mandate: Schema.optionalKey(Schema.String)
  })
})
export type RedirectFlow = typeof RedirectFlow.Type

/**
 * The redirect flow as stored: with the id of its own billing request flow, which its pages
 * follow (a later `POST /billing_request_flows` on the same request must not take them over).
 * Internal: the API's answers are encoded with `RedirectFlow`, which leaves it out.
 */
export const StoredRedirectFlow = Schema.Struct({ ...RedirectFlow.fields, billing_request_flow: Schema.optionalKey(Schema.String) })
export type StoredRedirectFlow = typeof StoredRedirectFlow.Type

export const redirectFlows = defineResource({
  name: "redirect_flows",
  idPrefix: ID_PREFIXES.redirect_flow,
  schema: StoredRedirectFlow,
  filters: { created_at: (r: StoredRedirectFlow) => r.created_at }
})

/** The integrator's token for the payer's session: given at creation and again to complete. */
const SessionToken = Schema.String.check(Schema.makeFilter((s: string) => s.length >= 1 && s.length <= 255, { message: "must be 1 to 255 characters" }))

/** `POST /redirect_flows`: the body under `redirect_flows`. */
export const RedirectFlowCreateRequest = Schema.Struct({
  description: Schema.optionalKey(Description),
  links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(IdOf("creditor")) })),
  metadata: Schema.optionalKey(Metadata),
  prefilled_bank_account: Schema.optionalKey(PrefilledBankAccount),
  prefilled_customer: Schema.optionalKey(Schema.Struct({ ...PrefilledCustomerFields, language: PayerText, phone_number: PayerText })),
  scheme: Schema.optionalKey(Schema.Literals(REDIRECT_FLOW_SCHEMES)),
  session_token: SessionToken,
  success_redirect_url: PayerUri
})
export type RedirectFlowCreateRequest = typeof RedirectFlowCreateRequest.Type

/** `POST /redirect_flows/{id}/actions/complete`: the body under `data` (or `redirect_flows`). */
export const RedirectFlowCompleteRequest = Schema.Struct({ session_token: SessionToken })
export type RedirectFlowCompleteRequest = typeof RedirectFlowCompleteRequest.Type
