import { Context, Effect, Layer, Schema } from "effect"
import { decodeAtBoundary, type IdGenerator, InvalidApiUsage, invalidField, InvalidState, newId, type NotFound, now, type OperationError, OrganisationId, REDIRECT_FLOW_LIFE_MS, type StorageError, timestampFromMillis, timestampToMillis } from "@paykit/core"
import { currencyOfMandateScheme } from "@paykit/validation"
import { MandateRepository } from "../mandates/repositories.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { schemeRefusal } from "../creditors/scheme-identifiers.ts"
import { constantTimeEquals } from "../kernel/constant-time.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { captureUnitOfWork, type EngineContext, insertNew, save } from "../kernel/support.ts"
import { BillingRequestFlowRepository, RedirectFlowRepository } from "./repositories.ts"
import { BillingRequestRepository } from "../billing-requests/repositories.ts"
import { BillingRequests } from "../billing-requests/billing-requests.ts"
import { createBillingRequestFlow } from "./billing-request-flows.ts"
import { payerPageLinks } from "../institutions/institutions.ts"
import type { BillingRequest } from "../billing-requests/domain/billing-requests.ts"
import { FlowLanguage } from "./domain/billing-request-flows.ts"
import { type RedirectFlow, RedirectFlowCompleteRequest, RedirectFlowCreateRequest, type StoredRedirectFlow } from "./domain/redirect-flows.ts"

const ROOT = "redirect_flows"

/** What completing can fail with: the operation errors, and `bad_request` for another session's token. */
export type CompleteError = OperationError | InvalidApiUsage

export { RedirectFlowCompleteRequest, RedirectFlowCreateRequest }

const decodeCreate = decodeAtBoundary(RedirectFlowCreateRequest, "redirect_flows")
const decodeComplete = decodeAtBoundary(RedirectFlowCompleteRequest, "redirect_flows")

const isFlowLanguage = Schema.is(FlowLanguage)

/** A flow without a scheme lets the payer's account decide; its billing request starts in GBP, which `choose_currency` may change. */
const DEFAULT_CURRENCY = "GBP"

interface Deps {
  readonly redirectFlows: RedirectFlowRepository["Service"]
  readonly flows: BillingRequestFlowRepository["Service"]
  readonly requests: BillingRequestRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly billingRequests: BillingRequests["Service"]
}

/**
 * As the real API does today: a billing request with a mandate request, and its billing request
 * flow (sending the payer back to `success_redirect_url`, the settings of the redirect flow's
 * pages at `redirect_url`).
 */
const create = (deps: Deps, organisation: OrganisationId, req: RedirectFlowCreateRequest): Effect.Effect<StoredRedirectFlow, OperationError, EngineContext> =>
  Effect.gen(function*() {
    // Checked here too, so a refusal points at the redirect flow's own fields.
    const creditor = yield* resolveCreditor(deps.creditors, organisation, ROOT, req.links?.creditor)
    const refusal = req.scheme === undefined ? undefined : schemeRefusal(creditor.resource, req.scheme)
    if (refusal !== undefined) return yield* invalidField(ROOT, ["scheme"], refusal)
    const br = yield* deps.billingRequests.create(organisation, {
      mandate_request: {
        currency: req.scheme === undefined ? DEFAULT_CURRENCY : currencyOfMandateScheme(req.scheme),
        ...(req.scheme === undefined ? {} : { scheme: req.scheme }),
        ...(req.description === undefined ? {} : { description: req.description })
      },
      links: { creditor: creditor.resource.id }
    })
    const { language, phone_number: _phone, ...prefilled } = req.prefilled_customer ?? {}
    const ownFlow = yield* createBillingRequestFlow(deps, organisation, {
      links: { billing_request: br.id },
      redirect_uri: req.success_redirect_url,
      // The integrator completes the flow (`actions/complete`), which fulfils the billing request.
      auto_fulfil: false,
      ...(req.prefilled_customer === undefined ? {} : { prefilled_customer: prefilled }),
      // The payer's language, when it is a code the flow takes, is the language of its pages.
      ...(typeof language === "string" && isFlowLanguage(language) ? { language } : {}),
      ...(req.prefilled_bank_account === undefined ? {} : { prefilled_bank_account: req.prefilled_bank_account })
    })
    const at = yield* now
    const id = yield* newId("redirect_flow")
    const redirectFlow: StoredRedirectFlow = {
      id,
      billing_request_flow: ownFlow.id,
      created_at: at,
      expires_at: timestampFromMillis(timestampToMillis(at) + REDIRECT_FLOW_LIFE_MS),
      description: req.description ?? null,
      session_token: req.session_token,
      scheme: req.scheme ?? null,
      success_redirect_url: req.success_redirect_url,
      // The redirect flow's own pages: the flow's steps, ending at `success_redirect_url` with its id.
      redirect_url: (yield* payerPageLinks).url("redirectFlow", organisation, id),
      metadata: req.metadata ?? {},
      links: { creditor: br.links.creditor, billing_request: br.id }
    }
    yield* insertNew(deps.redirectFlows, organisation, redirectFlow)
    return redirectFlow
  })

/** The billing request with its mandate made: fulfilled already, or fulfilled now if the payer has done every action. */
const fulfilledRequest = (deps: Deps, organisation: OrganisationId, id: string): Effect.Effect<BillingRequest, OperationError> =>
  Effect.gen(function*() {
    const br = yield* deps.billingRequests.get(organisation, id)
    if (br.status === "fulfilled") return br
    if (br.status === "ready_to_fulfil") return yield* deps.billingRequests.fulfil(organisation, id)
    const pending = br.actions.filter((a) => a.required && a.status === "pending").map((a) => a.type)
    return yield* new InvalidState({
      reason: "redirect_flow_incomplete",
      // The real API's words, then what is missing.
      message: pending.length === 0
        ? `Customer has not yet completed the Billing Request Flow payment pages (the billing request is ${br.status})`
        : `Customer has not yet completed the Billing Request Flow payment pages (${pending.join(", ")} still pending)`
    })
  })

/** Completes the flow into the customer, bank account and mandate its billing request made. */
const complete = (deps: Deps, organisation: OrganisationId, id: string, req: RedirectFlowCompleteRequest): Effect.Effect<StoredRedirectFlow, CompleteError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.redirectFlows.get(organisation, id)
    const flow = current.resource
    // The real API's answer to another session's token: `bad_request`, not a field error. Compared
    // in constant time: the token is the payer's session secret.
    if (!constantTimeEquals(req.session_token, flow.session_token)) {
      return yield* new InvalidApiUsage({ reason: "bad_request", status: 400, message: "The session_token differs from the one the redirect flow was created with" })
    }
    if (flow.links.mandate !== undefined) {
      return yield* new InvalidState({ reason: "redirect_flow_already_completed", message: "This redirect flow has already been completed" })
    }
    // "You cannot complete an expired redirect flow" (the real API): from `expires_at` on.
    if (timestampToMillis(yield* now) >= timestampToMillis(flow.expires_at)) {
      return yield* new InvalidState({ reason: "redirect_flow_expired", message: "This redirect flow has expired: redirect flows expire 30 minutes after they are created" })
    }
    const br = yield* fulfilledRequest(deps, organisation, flow.links.billing_request)
    const mandateId = br.mandate_request?.links.mandate
    const accountId = br.links.customer_bank_account
    if (mandateId === undefined || accountId === undefined) {
      return yield* Effect.die(new Error(`fulfilled billing request ${br.id} of redirect flow ${flow.id} has no mandate or bank account`))
    }
    const mandate = yield* Effect.orDie(deps.mandates.get(organisation, mandateId))
    const links = yield* payerPageLinks
    const next: StoredRedirectFlow = {
      ...flow,
      // The page confirming the payer's Direct Debit once the flow is completed.
      confirmation_url: links.url("redirectFlowConfirmation", organisation, flow.id),
      ...(mandate.resource.reference === null ? {} : { mandate_reference: mandate.resource.reference }),
      links: { ...flow.links, customer: br.links.customer, customer_bank_account: accountId, mandate: mandateId }
    }
    yield* save(deps.redirectFlows, organisation, current, next)
    return next
  })

/** The redirect flow as the API shows it: without its internal link. */
const publicOf = ({ billing_request_flow: _internal, ...flow }: StoredRedirectFlow): RedirectFlow => flow

export class RedirectFlows extends Context.Service<RedirectFlows, {
  readonly create: (organisation: OrganisationId, command: typeof RedirectFlowCreateRequest.Encoded) => Effect.Effect<RedirectFlow, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<RedirectFlow, NotFound | StorageError>
  readonly complete: (organisation: OrganisationId, id: string, command: typeof RedirectFlowCompleteRequest.Encoded) => Effect.Effect<RedirectFlow, CompleteError>
  /** The id of the redirect flow's own billing request flow (undefined for flows stored before it was kept). */
  readonly ownBillingRequestFlow: (organisation: OrganisationId, id: string) => Effect.Effect<string | undefined, NotFound | StorageError>
}>()("@paykit/engine/RedirectFlows") {
  static readonly layer: Layer.Layer<
    RedirectFlows,
    never,
    RedirectFlowRepository | BillingRequestFlowRepository | BillingRequestRepository | MandateRepository | CreditorRepository | BillingRequests | Transactor | IdGenerator | EventLog
  > = Layer.effect(
    RedirectFlows,
    Effect.gen(function*() {
      const deps: Deps = {
        redirectFlows: yield* RedirectFlowRepository,
        flows: yield* BillingRequestFlowRepository,
        requests: yield* BillingRequestRepository,
        mandates: yield* MandateRepository,
        creditors: yield* CreditorRepository,
        billingRequests: yield* BillingRequests
      }
      const run = yield* captureUnitOfWork
      return RedirectFlows.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => Effect.map(run(create(deps, o, c)), publicOf)),
        get: (o, id) => Effect.map(deps.redirectFlows.get(o, id), (v) => publicOf(v.resource)),
        complete: (o, id, command) => Effect.flatMap(decodeComplete(command), (c) => Effect.map(run(complete(deps, o, id, c)), publicOf)),
        ownBillingRequestFlow: (o, id) => Effect.map(deps.redirectFlows.get(o, id), (v) => v.resource.billing_request_flow)
      })
    })
  )
}
