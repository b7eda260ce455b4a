import { Context, Effect, Layer } from "effect"
import { optionalSchedule } from "../due-work/deadlines.ts"
import { decodeAtBoundary, decodeOptionalAtBoundary, type IdGenerator, invalidField, InvalidState, newId, type NotFound, now, type OperationError, OrganisationId, type StorageError, timestampToMillis } from "@paykit/core"
import {
  type BankAuthorisationEvent,
  bankAuthorisationExpiresAt,
  bankAuthorisationMachine,
  type BillingRequestEvent,
  type Cause,
  findAction,
  pendingRequirements
} from "@paykit/machines"
import { EventLog } from "../kernel/ports/event-log.ts"
import { oneOf } from "../kernel/ports/list-query.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { BankAuthorisationRepository } from "./repositories.ts"
import { BillingRequestRepository } from "../billing-requests/repositories.ts"
import type { BankAuthorisation } from "./domain/bank-authorisations.ts"
import type { BillingRequest } from "../billing-requests/domain/billing-requests.ts"
import { BankAuthorisationCreateRequest, BankAuthorisationOutcomeRequest } from "./domain/bank-authorisation-commands.ts"
import { checkBillingRequestEvent, stepBillingRequest } from "../billing-requests/billing-request-steps.ts"
import { BillingRequests } from "../billing-requests/billing-requests.ts"
import { payerPageLinks } from "../institutions/institutions.ts"
import { API_CAUSE, applyCreation, applyTransition, captureUnitOfWork, save } from "../kernel/support.ts"
import { captureDailyItems, type DailyItems, idOfVersioned } from "../due-work/daily-items.ts"

const ROOT = "bank_authorisations"
const decodeCreate = decodeAtBoundary(BankAuthorisationCreateRequest, ROOT)
const decodeOutcome = decodeOptionalAtBoundary(BankAuthorisationOutcomeRequest, ROOT)

export { BankAuthorisationCreateRequest, BankAuthorisationOutcomeRequest }

type Errors = OperationError

/** A mandate needs an account: the one the bank reports at authorisation, unless the payer already gave one. */
export const bankReportsAccount = (request: BillingRequest): boolean =>
  request.mandate_request !== null && request.links.customer_bank_account === undefined

const BANK_CAUSE = (cause: string, description: string): Cause => ({ origin: "bank", cause, description })


/** The due-work kind of a bank authorisation's expiry (`due.ts` of this room runs it). */
export const BANK_AUTHORISATION_EXPIRY = "bank_authorisation_expiry"

interface Deps {
  readonly authorisations: BankAuthorisationRepository["Service"]
  readonly requests: BillingRequestRepository["Service"]
  readonly billingRequests: BillingRequests["Service"]
}

const createAuthorisation = (deps: Omit<Deps, "billingRequests">, organisation: OrganisationId, req: BankAuthorisationCreateRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, req.links.billing_request).pipe(
      Effect.mapError(() => invalidField(ROOT, ["links", "billing_request"], "must be a billing request of this organisation"))
    )
    const br = current.resource
    const action = findAction(br.actions, "bank_authorisation")
    if (action === undefined || action.status !== "pending" || (br.status !== "pending" && br.status !== "ready_to_fulfil")) {
      return yield* new InvalidState({ reason: "bank_authorisation_not_available", message: "The billing request has no pending bank authorisation action" })
    }
    const missing = pendingRequirements(br.actions, "bank_authorisation")
    if (missing.length > 0) {
      return yield* new InvalidState({ reason: "billing_request_action_requires_actions", message: `The bank authorisation requires ${missing.join(", ")} to be completed first` })
    }
    const links = yield* payerPageLinks
    const id = yield* newId("bank_authorisation")
    const at = yield* now
    const fields: Omit<BankAuthorisation, "status"> = {
      id,
      created_at: at,
      authorisation_type: action.bank_authorisation?.authorisation_type ?? (br.payment_request === null ? "mandate" : "payment"),
      // The hosted page a payer visits to authorise (the sandbox bank's page), a PNG QR code of it
      // for a payer who authorises on their phone, and without a `redirect_uri` the page saying the outcome.
      url: links.url("bankAuthorisation", organisation, id),
      qr_code_url: links.url("bankAuthorisationQrCode", organisation, id),
      redirect_uri: req.redirect_uri ?? links.url("bankAuthorisationComplete", organisation, id),
      expires_at: bankAuthorisationExpiresAt(at),
      last_visited_at: null,
      authorised_at: null,
      links: { billing_request: br.id, ...(br.links.institution === undefined ? {} : { institution: br.links.institution }) }
    }
    const { resource: authorisation } = yield* applyCreation(deps.authorisations, {
      organisation,
      machine: bankAuthorisationMachine,
      state: "created",
      resource: fields,
      cause: API_CAUSE("bank_authorisation_created"),
      links: { bank_authorisation: id, billing_request: br.id }
    })
    yield* save(deps.requests, organisation, current, { ...br, links: { ...br.links, bank_authorisation: id } })
    return authorisation
  })

const move = (
  deps: Pick<Deps, "authorisations">,
  organisation: OrganisationId,
  current: Versioned<BankAuthorisation>,
  event: BankAuthorisationEvent,
  cause: Cause,
  patch?: (a: BankAuthorisation, at: BankAuthorisation["created_at"]) => BankAuthorisation
) =>
  applyTransition(deps.authorisations, {
    organisation,
    machine: bankAuthorisationMachine,
    current,
    event,
    context: { created_at: current.resource.created_at },
    cause,
    links: { bank_authorisation: current.resource.id, billing_request: current.resource.links.billing_request },
    ...(patch === undefined ? {} : { patch })
  })

/** Tells the billing request; `required` outcomes must be accepted, notices are skipped when refused. */
const tell = (deps: Pick<Deps, "requests">, organisation: OrganisationId, authorisation: BankAuthorisation, event: BillingRequestEvent, cause: Cause, required: boolean) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.requests.get(organisation, authorisation.links.billing_request))
    if (!required) {
      const accepted = yield* Effect.match(checkBillingRequestEvent(current.resource, event), { onFailure: () => false, onSuccess: () => true })
      if (!accepted) return
    }
    yield* stepBillingRequest(deps.requests, organisation, current, event, cause)
  })

const visit = (deps: Omit<Deps, "billingRequests">, organisation: OrganisationId, id: string) =>
  Effect.gen(function*() {
    const current = yield* deps.authorisations.get(organisation, id)
    const cause = { origin: "payer" as const, cause: "bank_authorisation_visited", description: "The payer visited the bank authorisation link." }
    const next = yield* move(deps, organisation, current, "visit", cause, (a, at) => ({ ...a, last_visited_at: at }))
    yield* tell(deps, organisation, next, "bank_authorisation_visited", cause, true)
    return next
  })

const authorise = (deps: Deps, organisation: OrganisationId, id: string, req: BankAuthorisationOutcomeRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.authorisations.get(organisation, id)
    const br = yield* Effect.orDie(deps.requests.get(organisation, current.resource.links.billing_request))
    yield* checkBillingRequestEvent(br.resource, "bank_authorisation_authorised")
    const cause = BANK_CAUSE("bank_authorisation_authorised", "The payer authorised at their bank.")
    const next = yield* move(deps, organisation, current, "authorise", cause, (a, at) => ({ ...a, authorised_at: at }))
    if (bankReportsAccount(br.resource)) {
      if (req.bank_account === undefined) {
        return yield* invalidField(ROOT, ["bank_account"], "is required: the bank must report the payer's account for the mandate")
      }
      yield* deps.billingRequests.collectBankAccount(organisation, br.resource.id, req.bank_account)
    }
    yield* tell(deps, organisation, next, "bank_authorisation_authorised", cause, true)
    return next
  })

const finish = (deps: Omit<Deps, "billingRequests">, organisation: OrganisationId, id: string, event: "deny" | "fail") =>
  Effect.gen(function*() {
    const current = yield* deps.authorisations.get(organisation, id)
    const cause = event === "deny"
      ? { origin: "payer" as const, cause: "bank_authorisation_denied", description: "The payer denied the authorisation at their bank." }
      : BANK_CAUSE("bank_authorisation_failed", "The bank could not complete the authorisation.")
    const next = yield* move(deps, organisation, current, event, cause)
    yield* tell(deps, organisation, next, event === "deny" ? "bank_authorisation_denied" : "bank_authorisation_failed", cause, false)
    return next
  })

/** Due work: unfinished authorisations past `expires_at` expire, and their billing requests are told. */
const expireDue = (deps: Omit<Deps, "billingRequests">, eachItem: DailyItems, organisation: OrganisationId) =>
  Effect.gen(function*() {
    const at = yield* now
    const expired: Array<BankAuthorisation> = []
    const late = (yield* deps.authorisations.scan(organisation, { status: oneOf(["created", "visited"]) })).filter((current) =>
      timestampToMillis(current.resource.expires_at) <= timestampToMillis(at))
    const cause = { origin: "gocardless" as const, cause: "bank_authorisation_expired", description: "The bank authorisation link expired before the payer finished." }
    yield* eachItem("bank authorisation expiry", organisation, late, idOfVersioned, (current: Versioned<BankAuthorisation>) =>
      Effect.gen(function*() {
        const next = yield* move(deps, organisation, current, "expire", cause)
        yield* tell(deps, organisation, next, "bank_authorisation_expired", cause, false)
        expired.push(next)
      }))
    return expired
  })

export class BankAuthorisations extends Context.Service<BankAuthorisations, {
  readonly create: (organisation: OrganisationId, command: typeof BankAuthorisationCreateRequest.Encoded) => Effect.Effect<BankAuthorisation, Errors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BankAuthorisation, NotFound | StorageError>
  /** Engine operations for the hosted page and the sandbox: the payer and their bank acting. */
  readonly visit: (organisation: OrganisationId, id: string) => Effect.Effect<BankAuthorisation, Errors>
  readonly authorise: (organisation: OrganisationId, id: string, command?: typeof BankAuthorisationOutcomeRequest.Encoded) => Effect.Effect<BankAuthorisation, Errors>
  readonly deny: (organisation: OrganisationId, id: string) => Effect.Effect<BankAuthorisation, Errors>
  readonly fail: (organisation: OrganisationId, id: string) => Effect.Effect<BankAuthorisation, Errors>
  /**
   * Expires every unfinished bank authorisation whose `expires_at` has passed (15 minutes after
   * creation). For the simulator: call it whenever the clock moves.
   */
  readonly expireDue: (organisation: OrganisationId) => Effect.Effect<ReadonlyArray<BankAuthorisation>, StorageError>
}>()("@paykit/engine/BankAuthorisations") {
  static readonly layer: Layer.Layer<
    BankAuthorisations,
    never,
    BankAuthorisationRepository | BillingRequestRepository | BillingRequests | Transactor | IdGenerator | EventLog
  > = Layer.effect(
    BankAuthorisations,
    Effect.gen(function*() {
      const deps: Deps = {
        authorisations: yield* BankAuthorisationRepository,
        requests: yield* BillingRequestRepository,
        billingRequests: yield* BillingRequests
      }
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems
      const schedule = yield* optionalSchedule
      return BankAuthorisations.of({
        // Its expiry is due work at `expires_at`, committed with it.
        create: (o, command) =>
          Effect.flatMap(decodeCreate(command), (c) =>
            run(Effect.tap(createAuthorisation(deps, o, c), (a) =>
              schedule({ organisation: o, kind: BANK_AUTHORISATION_EXPIRY, key: a.id, dueAt: timestampToMillis(a.expires_at) })))),
        get: (o, id) => Effect.map(deps.authorisations.get(o, id), (v) => v.resource),
        visit: (o, id) => run(visit(deps, o, id)),
        authorise: (o, id, c) => Effect.flatMap(decodeOutcome(c), (outcome) => run(authorise(deps, o, id, outcome ?? {}))),
        deny: (o, id) => run(finish(deps, o, id, "deny")),
        fail: (o, id) => run(finish(deps, o, id, "fail")),
        expireDue: (o) => expireDue(deps, eachItem, o)
      })
    })
  )
}
