import { Effect } from "effect"
import { InvalidState, type StorageError } from "@paykit/core"
import { findAction } from "@paykit/machines"
import { API_CAUSE, type EngineContext, emit } from "../kernel/support.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { ConfirmPayerDetailsRequest, MetadataCommand, NotifyRequest } from "./domain/billing-request-commands.ts"
import { stepBillingRequest } from "./billing-request-steps.ts"
import type { BillingRequestDeps, Errors } from "./deps.ts"
import { present } from "./read.ts"

type ActionDeps = Pick<BillingRequestDeps, "requests" | "customers" | "details" | "accounts">

export const confirmPayerDetails = (deps: ActionDeps, organisation: string, id: string, req: ConfirmPayerDetailsRequest): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "confirm_payer_details",
      { origin: "payer", cause: "billing_request_payer_details_confirmed", description: "The payer confirmed their details." },
      {
        patch: (b) => ({
          ...b,
          metadata: req.metadata ?? b.metadata,
          mandate_request: b.mandate_request === null
            ? null
            : { ...b.mandate_request, payer_requested_dual_signature: req.payer_requested_dual_signature ?? b.mandate_request.payer_requested_dual_signature }
        })
      })
    return yield* present(deps, organisation, next)
  })

export const cancelBillingRequest = (deps: ActionDeps, organisation: string, id: string, req: MetadataCommand): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "cancel",
      API_CAUSE("billing_request_cancelled", "This billing request has been cancelled."),
      { patch: (b) => ({ ...b, metadata: req.metadata ?? b.metadata }) })
    return yield* present(deps, organisation, next)
  })

export const fallbackBillingRequest = (deps: ActionDeps, organisation: string, id: string): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "fallback",
      { origin: "payer", cause: "billing_request_fallback", description: "The payer fell back from Pay by Bank to direct debit." },
      { patch: (b) => ({ ...b, fallback_occurred: true }) })
    return yield* present(deps, organisation, next)
  })

/**
 * Records the request to notify the payer; no email is sent (docs/engine.md). The status does
 * not change, so the event is a record of the request, not a transition.
 */
export const notifyPayer = (deps: ActionDeps, organisation: string, id: string, req: NotifyRequest): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const br = current.resource
    if (findAction(br.actions, "bank_authorisation") === undefined) {
      return yield* new InvalidState({ reason: "notification_not_supported", message: "Only Pay by Bank billing requests (with a bank authorisation) can notify the payer" })
    }
    if (br.status !== "pending" && br.status !== "ready_to_fulfil") {
      return yield* new InvalidState({ reason: "billing_request_not_pending", message: `The billing request is ${br.status}; the payer cannot be notified` })
    }
    const customer = yield* Effect.orDie(deps.customers.get(organisation, br.links.customer))
    if (customer.resource.email === null) {
      return yield* new InvalidState({ reason: "customer_email_missing", message: "The customer has no email address to notify" })
    }
    const redirect = req.redirect_uri === undefined ? "" : ` (redirect_uri ${req.redirect_uri})`
    yield* emit(organisation, {
      resource_type: "billing_requests",
      action: "notification_recorded",
      links: { billing_request: br.id, customer: br.links.customer },
      cause: API_CAUSE(
        "billing_request_notification_requested",
        `An email notification to ${customer.resource.email} was requested${redirect}. This engine records it; it sends no email.`
      ),
      resource_metadata: br.metadata
    })
    return yield* present(deps, organisation, br)
  })
