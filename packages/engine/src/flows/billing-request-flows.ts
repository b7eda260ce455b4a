import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { BILLING_REQUEST_FLOW_LIFE_MS, decodeAtBoundary, type IdGenerator, invalidField, InvalidState, newId, type NotFound, now, type OperationError, OrganisationId, type StorageError, timestampFromMillis, timestampToMillis } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { API_CAUSE, captureUnitOfWork, type EngineContext, emit, insertNew, save } from "../kernel/support.ts"
import { BillingRequestFlowRepository } from "./repositories.ts"
import { BillingRequestRepository } from "../billing-requests/repositories.ts"
import { payerPageLinks } from "../institutions/institutions.ts"
import { eq } from "../kernel/ports/list-query.ts"
import {
  type BillingRequestFlow,
  BillingRequestFlowCreateRequest,
  type StoredPrefilledCustomer
} from "./domain/billing-request-flows.ts"

const decodeCreate = decodeAtBoundary(BillingRequestFlowCreateRequest, "billing_request_flows")

const ROOT = "billing_request_flows"

/** The statuses of a billing request a payer can still be sent to complete. */
const OPEN_STATUSES: ReadonlyArray<string> = ["pending", "ready_to_fulfil"]

/** Bytes of randomness in a session token: as many as a webhook secret's. */
const SESSION_TOKEN_BYTES = 24

const prefilledCustomer = (given: BillingRequestFlowCreateRequest["prefilled_customer"]): StoredPrefilledCustomer | null =>
  given === undefined
    ? null
    : {
      address_line1: given.address_line1 ?? null,
      address_line2: given.address_line2 ?? null,
      address_line3: given.address_line3 ?? null,
      city: given.city ?? null,
      region: given.region ?? null,
      postal_code: given.postal_code ?? null,
      country_code: given.country_code ?? null,
      company_name: given.company_name ?? null,
      danish_identity_number: given.danish_identity_number ?? null,
      email: given.email ?? null,
      family_name: given.family_name ?? null,
      given_name: given.given_name ?? null,
      swedish_identity_number: given.swedish_identity_number ?? null
    }

interface Deps {
  readonly flows: BillingRequestFlowRepository["Service"]
  readonly requests: BillingRequestRepository["Service"]
}

/**
 * Creates the flow of a billing request a payer can still complete, with the real API's defaults
 * (`auto_fulfil` on, every lock and button off), and records `flow_created` on the billing request.
 */
export const createBillingRequestFlow = (deps: Deps, organisation: string, req: BillingRequestFlowCreateRequest): Effect.Effect<BillingRequestFlow, OperationError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, req.links.billing_request).pipe(
      Effect.mapError(() => invalidField(ROOT, ["links", "billing_request"], "must be a billing request of this organisation"))
    )
    const br = current.resource
    if (!OPEN_STATUSES.includes(br.status)) {
      return yield* new InvalidState({ reason: "billing_request_not_pending", message: `The billing request is ${br.status}; a payer can no longer complete it` })
    }
    const links = yield* payerPageLinks
    const id = yield* newId("billing_request_flow")
    const at = yield* now
    const flow: BillingRequestFlow = {
      id,
      created_at: at,
      // The flow's hosted pages (docs/pages.md): `<base>/pages/<organisation>/billing_request_flows/<id>/<key>`.
      authorisation_url: links.url("billingRequestFlow", organisation, id),
      auto_fulfil: req.auto_fulfil ?? true,
      customer_details_captured: req.customer_details_captured ?? false,
      exit_uri: req.exit_uri ?? null,
      expires_at: timestampFromMillis(timestampToMillis(at) + BILLING_REQUEST_FLOW_LIFE_MS),
      language: req.language ?? null,
      lock_bank_account: req.lock_bank_account ?? false,
      lock_currency: req.lock_currency ?? false,
      lock_customer_details: req.lock_customer_details ?? false,
      prefilled_bank_account: req.prefilled_bank_account ?? null,
      prefilled_customer: prefilledCustomer(req.prefilled_customer),
      redirect_uri: req.redirect_uri ?? null,
      session_token: null,
      show_redirect_buttons: req.show_redirect_buttons ?? false,
      show_success_redirect_button: req.show_success_redirect_button ?? false,
      skip_success_screen: req.skip_success_screen ?? false,
      links: { billing_request: br.id }
    }
    yield* insertNew(deps.flows, organisation, flow)
    yield* emit(organisation, {
      resource_type: "billing_requests",
      action: "flow_created",
      links: { billing_request: br.id, billing_request_flow: id, customer: br.links.customer },
      cause: API_CAUSE("billing_request_flow_created", "A billing request flow has been created against this billing request."),
      resource_metadata: br.metadata
    })
    return flow
  })

/** A fresh session token for an integration that drives the flow itself (each call replaces the last). */
const initialise = (deps: Deps, organisation: string, id: string): Effect.Effect<BillingRequestFlow, OperationError> =>
  Effect.gen(function*() {
    const current = yield* deps.flows.get(organisation, id)
    const next = { ...current.resource, session_token: `sess_${randomBytes(SESSION_TOKEN_BYTES).toString("base64url")}` }
    yield* save(deps.flows, organisation, current, next)
    return next
  })

export class BillingRequestFlows extends Context.Service<BillingRequestFlows, {
  readonly create: (organisation: OrganisationId, command: typeof BillingRequestFlowCreateRequest.Encoded) => Effect.Effect<BillingRequestFlow, OperationError>
  readonly initialise: (organisation: OrganisationId, id: string) => Effect.Effect<BillingRequestFlow, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BillingRequestFlow, NotFound | StorageError>
  /** The newest flow of a billing request (a redirect flow's pages take their settings from it). */
  readonly forBillingRequest: (organisation: OrganisationId, billingRequest: string) => Effect.Effect<BillingRequestFlow | undefined, StorageError>
}>()("@paykit/engine/BillingRequestFlows") {
  static readonly layer: Layer.Layer<BillingRequestFlows, never, BillingRequestFlowRepository | BillingRequestRepository | Transactor | IdGenerator | EventLog> =
    Layer.effect(
      BillingRequestFlows,
      Effect.gen(function*() {
        const deps: Deps = { flows: yield* BillingRequestFlowRepository, requests: yield* BillingRequestRepository }
        const run = yield* captureUnitOfWork
        return BillingRequestFlows.of({
          create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(createBillingRequestFlow(deps, o, c))),
          initialise: (o, id) => run(initialise(deps, o, id)),
          get: (o, id) => Effect.map(deps.flows.get(o, id), (v) => v.resource),
          forBillingRequest: (o, billingRequest) =>
            Effect.map(deps.flows.list(o, { limit: 1, filters: { billing_request: eq(billingRequest) } }), (page) => page.items[0])
        })
      })
    )
}
