import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, decodeInputEffect, type IdGenerator, invalidField, newId, type NotFound, now, type OperationError, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { schemeRefusal } from "../creditors/scheme-identifiers.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { captureIdGenerator, captureUnitOfWork, insertNew, save } from "../kernel/support.ts"
import { BillingRequestFlowRepository, BillingRequestTemplateRepository } from "./repositories.ts"
import { BillingRequestRepository } from "../billing-requests/repositories.ts"
import { BillingRequests } from "../billing-requests/billing-requests.ts"
import { startFromTemplate } from "./billing-request-template-start.ts"
import type { BillingRequestFlow } from "./domain/billing-request-flows.ts"
import { payerPageLinks } from "../institutions/institutions.ts"
import {
  type BillingRequestTemplate,
  BillingRequestTemplateCreateRequest,
  BillingRequestTemplateListParams,
  BillingRequestTemplateUpdateRequest
} from "./domain/billing-request-templates.ts"

const ROOT = "billing_request_templates"

type Fields = Omit<BillingRequestTemplateCreateRequest, "links">


const decodeCreate = decodeAtBoundary(BillingRequestTemplateCreateRequest, "billing_request_templates")
const decodeUpdate = decodeAtBoundary(BillingRequestTemplateUpdateRequest, "billing_request_templates")
const decodeList = decodeAtBoundary(BillingRequestTemplateListParams, ROOT)
/** The stored fields of a decoded template: absent is null, amounts are their digits. */
const storedFields = (t: Fields) => ({
  name: t.name ?? null,
  mandate_request_constraints: t.mandate_request_constraints ?? null,
  mandate_request_currency: t.mandate_request_currency ?? null,
  mandate_request_description: t.mandate_request_description ?? null,
  mandate_request_metadata: t.mandate_request_metadata ?? null,
  mandate_request_scheme: t.mandate_request_scheme ?? null,
  mandate_request_verify: t.mandate_request_verify ?? null,
  metadata: t.metadata ?? {},
  payment_request_amount: t.payment_request_amount === undefined ? null : String(t.payment_request_amount),
  payment_request_currency: t.payment_request_currency ?? null,
  payment_request_description: t.payment_request_description ?? null,
  payment_request_metadata: t.payment_request_metadata ?? null,
  payment_request_scheme: t.payment_request_scheme ?? null,
  redirect_uri: t.redirect_uri ?? null
})

/** A stored template's fields as a request would give them (nulls left out), so a change is checked as a whole. */
const givenFields = (t: BillingRequestTemplate): Record<string, unknown> => {
  const { id: _id, created_at: _created, updated_at: _updated, authorisation_url: _url, links: _links, ...fields } = t
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null))
}

interface Deps {
  readonly templates: BillingRequestTemplateRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
}

const decodeTemplate = decodeInputEffect(BillingRequestTemplateCreateRequest, ROOT)

/** The creditor must be able to collect on the template's mandate scheme. */
const checkScheme = (deps: Deps, organisation: string, creditorId: string, t: Fields) =>
  Effect.gen(function*() {
    if (t.mandate_request_scheme === undefined) return
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, creditorId))
    const refusal = schemeRefusal(creditor.resource, t.mandate_request_scheme)
    if (refusal !== undefined) return yield* invalidField(ROOT, ["mandate_request_scheme"], refusal)
  })

const create = (deps: Deps, organisation: string, req: BillingRequestTemplateCreateRequest) =>
  Effect.gen(function*() {
    const creditor = yield* resolveCreditor(deps.creditors, organisation, ROOT, req.links?.creditor)
    yield* checkScheme(deps, organisation, creditor.resource.id, req)
    const links = yield* payerPageLinks
    const id = yield* newId("billing_request_template")
    const at = yield* now
    const template: BillingRequestTemplate = {
      id,
      created_at: at,
      updated_at: at,
      // The template's reusable link: its page starts a billing request and its flow per visit.
      authorisation_url: links.url("billingRequestTemplate", organisation, id),
      ...storedFields(req),
      links: { creditor: creditor.resource.id }
    }
    yield* insertNew(deps.templates, organisation, template)
    return template
  })

/** The fields given replace the stored ones; the template they make is checked by create's rules. */
const update = (deps: Deps, organisation: string, id: string, req: BillingRequestTemplateUpdateRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.templates.get(organisation, id)
    const merged = yield* decodeTemplate({ ...givenFields(current.resource), ...req })
    yield* checkScheme(deps, organisation, current.resource.links.creditor, merged)
    // The link under this server's page key: a template stored before page keys (or under another
    // server secret) gets a link that leads to its page again.
    const authorisation_url = (yield* payerPageLinks).url("billingRequestTemplate", organisation, id)
    const next: BillingRequestTemplate = { ...current.resource, ...storedFields(merged), authorisation_url, updated_at: yield* now }
    yield* save(deps.templates, organisation, current, next)
    return next
  })

export class BillingRequestTemplates extends Context.Service<BillingRequestTemplates, {
  readonly create: (organisation: OrganisationId, command: typeof BillingRequestTemplateCreateRequest.Encoded) => Effect.Effect<BillingRequestTemplate, OperationError>
  readonly list: (organisation: OrganisationId, params: typeof BillingRequestTemplateListParams.Encoded) => Effect.Effect<Page<BillingRequestTemplate>, ValidationFailed | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BillingRequestTemplate, NotFound | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof BillingRequestTemplateUpdateRequest.Encoded) => Effect.Effect<BillingRequestTemplate, OperationError>
  /** For the hosted page behind `authorisation_url`: a billing request of the template's, and its flow. */
  readonly start: (organisation: OrganisationId, id: string) => Effect.Effect<BillingRequestFlow, OperationError>
}>()("@paykit/engine/BillingRequestTemplates") {
  static readonly layer: Layer.Layer<
    BillingRequestTemplates,
    never,
    | BillingRequestTemplateRepository
    | BillingRequestFlowRepository
    | BillingRequestRepository
    | CreditorRepository
    | BillingRequests
    | Transactor
    | IdGenerator
    | EventLog
  > = Layer.effect(
    BillingRequestTemplates,
    Effect.gen(function*() {
      const deps: Deps = { templates: yield* BillingRequestTemplateRepository, creditors: yield* CreditorRepository }
      const startDeps = {
        templates: deps.templates,
        flows: yield* BillingRequestFlowRepository,
        requests: yield* BillingRequestRepository,
        billingRequests: yield* BillingRequests
      }
      const withIds = yield* captureIdGenerator
      const run = yield* captureUnitOfWork
      return BillingRequestTemplates.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => withIds(create(deps, o, c))),
        list: (o, params) =>
          Effect.flatMap(decodeList(params), (p) =>
            deps.templates.list(o, toListQuery(p, { payment_request_scheme: p.payment_request_scheme === undefined ? undefined : eq(p.payment_request_scheme) }))),
        get: (o, id) => Effect.map(deps.templates.get(o, id), (v) => v.resource),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => update(deps, o, id, c)),
        start: (o, id) => run(startFromTemplate(startDeps, o, id))
      })
    })
  )
}
