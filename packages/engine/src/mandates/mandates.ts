import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, decodeOptionalAtBoundary, type IdGenerator, invalidField, InvalidState, newId, type NotFound, now, type OperationError, type OrganisationId, type StorageError, today, type ValidationFailed } from "@paykit/core"
import { mandateMachine } from "@paykit/machines"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "../customers/repositories.ts"
import { MandateDormancyRepository, MandateRepository } from "./repositories.ts"
import { cancelMandateWithPayments, MandateEndings } from "./mandate-cancel.ts"
import { watchAgain, watchMandate } from "./mandate-dormancy.ts"
import {
  CUSTOMER_APPROVAL_SCHEMES,
  type Mandate,
  MandateCreateRequest,
  MandateListParams,
  MandateMetadataRequest,
  MANDATES_ROOT
} from "./domain/mandates.ts"
import { mandateSchemesOfAccount } from "../customers/account-schemes.ts"
import { isRemoved } from "../customers/domain/customers.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { schemeRefusal } from "../creditors/scheme-identifiers.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { API_CAUSE, applyCreation, captureUnitOfWork, save } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import { CUSTOMER_APPROVAL, mandateLinks, moveMandate, withNextPossibleChargeDate } from "./mandate-rules.ts"
import { type MandateDueDeps, processMandatesDay } from "./mandate-due.ts"
import { BankBatchRepository, BankItemRepository } from "../bank-submissions/repositories.ts"
import type { QueueDeps } from "../bank-submissions/queue.ts"
import { BankDetailsVault } from "../customers/bank-details-vault.ts"

type Errors = OperationError


const decodeCreate = decodeAtBoundary(MandateCreateRequest, MANDATES_ROOT)
const decodeMetadata = decodeAtBoundary(MandateMetadataRequest, MANDATES_ROOT)
const decodeList = decodeAtBoundary(MandateListParams, MANDATES_ROOT)
const decodeOptionalMetadata = decodeOptionalAtBoundary(MandateMetadataRequest, MANDATES_ROOT)
export interface MandateCreateOptions {
  readonly customerApproval?: boolean
}

export class Mandates extends Context.Service<Mandates, {
  /**
   * `options.customerApproval`: the payer still has to approve (a dual-signature Bacs mandate of a
   * billing request); PayTo mandates always wait for the payer's approval in their bank. Such
   * mandates start `pending_customer_approval`.
   */
  readonly create: (organisation: OrganisationId, command: typeof MandateCreateRequest.Encoded, options?: MandateCreateOptions) => Effect.Effect<Mandate, Errors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Mandate, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof MandateListParams.Encoded) => Effect.Effect<Page<Mandate>, ValidationFailed | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof MandateMetadataRequest.Encoded) => Effect.Effect<Mandate, Errors>
  /**
   * Cancels the mandate, its payments not yet submitted and its live subscriptions
   * (`mandate-cancel.ts`). The body's metadata goes on the cancellation event, as in the real API.
   */
  readonly cancel: (organisation: OrganisationId, id: string, command?: typeof MandateMetadataRequest.Encoded) => Effect.Effect<Mandate, Errors>
  /** The body's metadata goes on the `resubmission_requested` event, as in the real API. */
  readonly reinstate: (organisation: OrganisationId, id: string, command?: typeof MandateMetadataRequest.Encoded) => Effect.Effect<Mandate, Errors>
  /** The payer's approval (hosted page or bank app, engine operation): `pending_customer_approval -> pending_submission`. */
  readonly grantCustomerApproval: (organisation: OrganisationId, id: string) => Effect.Effect<Mandate, Errors>
  /** The bank's day for mandates (`mandate-due.ts`). Run by the simulator once per day. */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/Mandates") {
  static readonly layer: Layer.Layer<
    Mandates,
    never,
    | MandateRepository
    | CreditorRepository
    | CustomerRepository
    | CustomerBankAccountRepository
    | MandateDormancyRepository
    | MandateEndings
    | BankItemRepository
    | BankBatchRepository
    | BankDetailsVault
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Mandates,
    Effect.gen(function*() {
      const mandates = yield* MandateRepository
      const creditors = yield* CreditorRepository
      const accounts = yield* CustomerBankAccountRepository
      const run = yield* captureUnitOfWork
      const dormancy = yield* MandateDormancyRepository
      const deps: MandateDeps = {
        mandates, creditors, accounts, dormancy, customers: yield* CustomerRepository, endings: yield* MandateEndings
      }
      const queue: QueueDeps = { items: yield* BankItemRepository, batches: yield* BankBatchRepository, accounts, vault: yield* BankDetailsVault }
      const due: MandateDueDeps = { mandates, accounts, dormancy, queue, eachItem: yield* captureDailyItems }
      return Mandates.of({
        create: (o, command, options) => Effect.flatMap(decodeCreate(command), (c) => run(createMandate(deps, o, c, options))),
        grantCustomerApproval: (o, id) => run(grantCustomerApproval(deps, o, id)),
        get: (o, id) => Effect.flatMap(mandates.get(o, id), (v) => present(deps, o, v.resource)),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => listMandates(deps, o, p)),
        update: (o, id, command) => Effect.flatMap(decodeMetadata(command), (c) => run(updateMandate(deps, o, id, c))),
        cancel: (o, id, command) => Effect.flatMap(decodeOptionalMetadata(command), (c) => run(cancelMandate(deps, o, id, c))),
        reinstate: (o, id, command) => Effect.flatMap(decodeOptionalMetadata(command), (c) => run(reinstateMandate(deps, o, id, c))),
        processDay: (o) => processMandatesDay(due, o)
      })
    })
  )
}

interface MandateDeps {
  readonly mandates: MandateRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly customers: CustomerRepository["Service"]
  readonly dormancy: MandateDormancyRepository["Service"]
  /** What a cancelled mandate takes with it (`mandate-cancel.ts`'s port). */
  readonly endings: MandateEndings["Service"]
}

const present = ({ creditors }: MandateDeps, organisation: string, mandate: Mandate) =>
  Effect.gen(function*() {
    const creditor = yield* Effect.orDie(creditors.get(organisation, mandate.links.creditor))
    return withNextPossibleChargeDate(mandate, creditor.resource, yield* today())
  })

/** The account's available debit schemes decide: a scheme it cannot be collected on is refused. */
const createMandate = (deps: MandateDeps, organisation: string, req: MandateCreateRequest, options: MandateCreateOptions = {}) =>
  Effect.gen(function*() {
    const account = yield* deps.accounts.get(organisation, req.links.customer_bank_account).pipe(
      Effect.mapError(() => invalidField(MANDATES_ROOT, ["links", "customer_bank_account"], "must be a customer bank account of this organisation"))
    )
    if (!account.resource.enabled) return yield* accountDisabled()
    // A versioned save of the unchanged account: a customer's removal (which disables, so saves, each
    // of their accounts) at the same time conflicts with this creation instead of missing its mandate.
    yield* save(deps.accounts, organisation, account, account.resource)
    const creditor = yield* resolveCreditor(deps.creditors, organisation, MANDATES_ROOT, req.links.creditor)
    const available = mandateSchemesOfAccount(account.resource.country_code)
    const scheme = req.scheme ?? available[0]
    if (scheme === undefined) {
      return yield* invalidField(MANDATES_ROOT, ["links", "customer_bank_account"], `is in a country no mandate scheme reaches (${account.resource.country_code ?? "unknown"})`)
    }
    if (!available.includes(scheme)) {
      return yield* invalidField(MANDATES_ROOT, ["scheme"], `is not available for this bank account (available: ${available.join(", ")})`)
    }
    const refusal = schemeRefusal(creditor.resource, scheme)
    if (refusal !== undefined) return yield* invalidField(MANDATES_ROOT, ["scheme"], refusal)
    if (scheme === "ach" && req.payer_ip_address === undefined && (req.authorisation_source ?? "web") === "web") {
      return yield* invalidField(MANDATES_ROOT, ["payer_ip_address"], "is required for ACH mandates authorised on the web")
    }
    const id = yield* newId("mandate")
    const fields: Omit<Mandate, "status"> = {
      id,
      created_at: yield* now,
      reference: req.reference ?? `${creditor.resource.bank_reference_prefix}-${id.slice(-6)}`,
      scheme,
      next_possible_charge_date: null,
      next_possible_standard_ach_charge_date: null,
      payments_require_approval: false,
      authorisation_source: req.authorisation_source ?? null,
      consent_type: null,
      funds_settlement: "managed",
      mandate_type: null,
      verified_at: null,
      metadata: req.metadata ?? {},
      links: { creditor: creditor.resource.id, customer: account.resource.links.customer, customer_bank_account: account.resource.id }
    }
    const { resource: mandate } = yield* applyCreation(deps.mandates, {
      organisation,
      machine: mandateMachine,
      state: options.customerApproval === true || CUSTOMER_APPROVAL_SCHEMES.includes(scheme) ? "pending_customer_approval" : "pending_submission",
      resource: fields,
      cause: API_CAUSE("mandate_created"),
      links: mandateLinks(fields)
    })
    yield* watchMandate(deps.dormancy, organisation, mandate)
    return yield* present(deps, organisation, mandate)
  })

const listMandates = (deps: MandateDeps, organisation: string, params: MandateListParams) =>
  Effect.gen(function*() {
    const page = yield* deps.mandates.list(organisation, toListQuery(params, {
      creditor: params.creditor === undefined ? undefined : eq(params.creditor),
      customer: params.customer === undefined ? undefined : eq(params.customer),
      customer_bank_account: params.customer_bank_account === undefined ? undefined : eq(params.customer_bank_account),
      reference: params.reference === undefined ? undefined : eq(params.reference),
      scheme: params.scheme === undefined ? undefined : oneOf(params.scheme),
      status: params.status === undefined ? undefined : oneOf(params.status),
      mandate_type: params.mandate_type === undefined ? undefined : eq(params.mandate_type)
    }))
    const items = yield* Effect.forEach(page.items, (m) => present(deps, organisation, m))
    return { ...page, items }
  })

const updateMandate = (deps: MandateDeps, organisation: string, id: string, req: MandateMetadataRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.mandates.get(organisation, id)
    const next: Mandate = { ...current.resource, metadata: req.metadata ?? current.resource.metadata }
    yield* save(deps.mandates, organisation, current, next)
    return yield* present(deps, organisation, next)
  })

const cancelMandate = (deps: MandateDeps, organisation: string, id: string, req: MandateMetadataRequest = {}) =>
  Effect.gen(function*() {
    const current = yield* deps.mandates.get(organisation, id)
    const cause = API_CAUSE("mandate_cancelled", "The mandate was cancelled at your request.")
    const next = yield* cancelMandateWithPayments(deps, organisation, current, cause, req.metadata)
    return yield* present(deps, organisation, next)
  })

const accountDisabled = () => new InvalidState({ reason: "bank_account_disabled", message: "The customer bank account is disabled" })

/**
 * A mandate whose customer was removed or whose account was disabled stays dormant: reinstating it
 * would collect from a payer whose data is erased or from an account they closed.
 * (The real API also allows at most 10 resubmissions but names no reason for it: not enforced, see docs.)
 */
const checkPayerStillThere = (deps: MandateDeps, organisation: string, mandate: Mandate) =>
  Effect.gen(function*() {
    const customer = yield* Effect.orDie(deps.customers.get(organisation, mandate.links.customer))
    if (isRemoved(customer.resource)) {
      return yield* new InvalidState({
        reason: "customer_data_removed",
        message: "The mandate's customer was removed and their data erased",
        links: { customer: mandate.links.customer }
      })
    }
    const account = yield* Effect.orDie(deps.accounts.get(organisation, mandate.links.customer_bank_account))
    if (!account.resource.enabled) return yield* accountDisabled()
  })

const reinstateMandate = (deps: MandateDeps, organisation: string, id: string, req: MandateMetadataRequest = {}) =>
  Effect.gen(function*() {
    const current = yield* deps.mandates.get(organisation, id)
    yield* checkPayerStillThere(deps, organisation, current.resource)
    const cause = API_CAUSE("mandate_reinstated", "The mandate was reinstated at your request.")
    const next = yield* moveMandate(deps.mandates, organisation, current, "reinstate", cause, undefined, req.metadata)
    yield* watchAgain(deps.dormancy, organisation, id)
    return yield* present(deps, organisation, next)
  })

const grantCustomerApproval = (deps: MandateDeps, organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* deps.mandates.get(organisation, id)
    const next = yield* moveMandate(deps.mandates, organisation, current, "customer_approval_granted", CUSTOMER_APPROVAL)
    return yield* present(deps, organisation, next)
  })

