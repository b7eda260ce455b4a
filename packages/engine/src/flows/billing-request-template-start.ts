import { Effect } from "effect"
import { decodeInputEffect, InvalidState, type OperationError, type OrganisationId } from "@paykit/core"
import { BillingRequestCreate } from "@paykit/validation"
import type { EngineContext } from "../kernel/support.ts"
import type { BillingRequests } from "../billing-requests/billing-requests.ts"
import { createBillingRequestFlow } from "./billing-request-flows.ts"
import type { BillingRequestFlowRepository, BillingRequestTemplateRepository } from "./repositories.ts"
import type { BillingRequestRepository } from "../billing-requests/repositories.ts"
import type { BillingRequestFlow } from "./domain/billing-request-flows.ts"
import type { BillingRequestTemplate } from "./domain/billing-request-templates.ts"

/** The present fields of an object: a template keeps null for what it does not ask for. */
const present = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null))

/** The billing request a template asks for, as a create body: its mandate request, its payment request, its creditor. */
export const billingRequestBodyOf = (t: BillingRequestTemplate): Record<string, unknown> => ({
  ...(t.mandate_request_currency === null ? {} : {
    mandate_request: present({
      currency: t.mandate_request_currency,
      scheme: t.mandate_request_scheme,
      description: t.mandate_request_description,
      metadata: t.mandate_request_metadata,
      verify: t.mandate_request_verify,
      constraints: t.mandate_request_constraints
    })
  }),
  ...(t.payment_request_amount === null ? {} : {
    payment_request: present({
      amount: Number(t.payment_request_amount),
      currency: t.payment_request_currency,
      scheme: t.payment_request_scheme,
      description: t.payment_request_description,
      metadata: t.payment_request_metadata
    })
  }),
  links: { creditor: t.links.creditor }
})

const decodeBillingRequest = decodeInputEffect(BillingRequestCreate, "billing_requests")

export interface TemplateStartDeps {
  readonly templates: BillingRequestTemplateRepository["Service"]
  readonly flows: BillingRequestFlowRepository["Service"]
  readonly requests: BillingRequestRepository["Service"]
  readonly billingRequests: BillingRequests["Service"]
}

/**
 * What following a template's `authorisation_url` does (its page comes with the hosted pages): a
 * new billing request of the template's requests and its flow, sending the payer on to the
 * template's `redirect_uri`. A template its creditor can no longer honour (a scheme identifier
 * gone) is refused as the billing request would be, as `invalid_state`: the payer cannot fix it.
 */
export const startFromTemplate = (deps: TemplateStartDeps, organisation: OrganisationId, id: string): Effect.Effect<BillingRequestFlow, OperationError, EngineContext> =>
  Effect.gen(function*() {
    const template = (yield* deps.templates.get(organisation, id)).resource
    const refused = (e: { readonly message: string }) =>
      new InvalidState({ reason: "invalid_state", message: `The billing request template cannot start a billing request: ${e.message}` })
    const command = yield* Effect.mapError(decodeBillingRequest(billingRequestBodyOf(template)), refused)
    const br = yield* Effect.mapError(deps.billingRequests.create(organisation, command), (e) => e._tag === "ValidationFailed" ? refused(e) : e)
    return yield* createBillingRequestFlow(deps, organisation, {
      links: { billing_request: br.id },
      ...(template.redirect_uri === null ? {} : { redirect_uri: template.redirect_uri })
    })
  })
