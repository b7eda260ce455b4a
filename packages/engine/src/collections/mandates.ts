import { Context, Effect, Layer, Schema } from "effect"
import {
  type IdGenerator,
  InvalidState,
  type LocalDate,
  MandateScheme,
  Metadata,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  invalidField,
  newId,
  now,
  today,
  unsafeLocalDate,
  IdOf
} from "@paykit/core"
import { type Cause, MANDATE_STATUSES, mandateMachine } from "@paykit/machines"
import { nextPossibleChargeDate } from "@paykit/schedule"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository, MandateRepository, PaymentRepository } from "./repositories.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import type { Mandate } from "./domain/mandates.ts"
import { mandateSchemesOfAccount } from "./account-schemes.ts"
import { idFilter, listFields, toListQuery } from "../kernel/list-params.ts"
import { BACS_DORMANCY_MONTHS, DORMANCY_SCHEMES, isDormant } from "./mandate-dormancy.ts"
import { DEFAULT_MINIMUM_ADVANCE_NOTICE, identifierSchemeOf, schemeRefusal } from "../creditors/scheme-identifiers.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { API_CAUSE, applyCreation, applyTransition, save, captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"
import { MetadataUpdateRequest } from "../kernel/metadata-requests.ts"

const ROOT = "mandates"

export const MandateCreateRequest = Schema.Struct({
  scheme: Schema.optionalKey(MandateScheme),
  reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  authorisation_source: Schema.optionalKey(Schema.Literals(["web", "telephone", "paper"])),
  payer_ip_address: Schema.optionalKey(Schema.String),
  links: Schema.Struct({ customer_bank_account: IdOf("customer_bank_account"), creditor: idFilter("creditor") })
})

export const MandateListParams = Schema.Struct({
  ...listFields("mandate"),
  creditor: idFilter("creditor"),
  customer: idFilter("customer"),
  customer_bank_account: idFilter("customer_bank_account"),
  reference: Schema.optionalKey(Schema.String),
  scheme: Schema.optionalKey(Schema.Array(MandateScheme)),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(MANDATE_STATUSES)))
})

/** Mandate statuses against which payments can still be created. */
export const CHARGEABLE_MANDATE_STATUSES: ReadonlyArray<Mandate["status"]> = ["pending_customer_approval", "pending_submission", "submitted", "active"]

/** The working days of notice a creditor gives on a scheme: its identifier's, else the default. */
export const minimumAdvanceNotice = (creditor: Creditor, scheme: MandateScheme): number =>
  creditor.scheme_identifiers.find((s) => s.scheme === identifierSchemeOf(scheme) && s.status === "active")?.minimum_advance_notice ??
    DEFAULT_MINIMUM_ADVANCE_NOTICE

/**
 * `next_possible_charge_date` changes with time, so it is computed when a mandate is read: the
 * scheme's calendar, today and the creditor's notice (@paykit/schedule). Mandates that can no
 * longer be charged have none.
 */
export const withNextPossibleChargeDate = (mandate: Mandate, creditor: Creditor, day: LocalDate): Mandate => {
  if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.status)) {
    return { ...mandate, next_possible_charge_date: null, next_possible_standard_ach_charge_date: null }
  }
  const date = nextPossibleChargeDate({ scheme: mandate.scheme, today: day, minimumAdvanceNotice: minimumAdvanceNotice(creditor, mandate.scheme) })
  return {
    ...mandate,
    next_possible_charge_date: date,
    next_possible_standard_ach_charge_date: mandate.scheme === "ach" ? date : null
  }
}

type Errors = ValidationFailed | InvalidState | NotFound

export interface MandateCreateOptions {
  readonly customerApproval?: boolean
}

/** Schemes whose mandates the payer approves in their bank before they can be submitted. */
export const CUSTOMER_APPROVAL_SCHEMES: ReadonlyArray<MandateScheme> = ["pay_to"]

export class Mandates extends Context.Service<Mandates, {
  /**
   * `options.customerApproval`: the payer still has to approve (a dual-signature Bacs mandate of a
   * billing request); PayTo mandates always wait for the payer's approval in their bank. Such
   * mandates start `pending_customer_approval`.
   */
  readonly create: (organisation: string, input: unknown, options?: MandateCreateOptions) => Effect.Effect<Mandate, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<Mandate, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<Mandate>, ValidationFailed>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<Mandate, Errors>
  readonly cancel: (organisation: string, id: string, input?: unknown) => Effect.Effect<Mandate, Errors>
  readonly reinstate: (organisation: string, id: string, input?: unknown) => Effect.Effect<Mandate, Errors>
  /** The payer's approval (hosted page or bank app, engine operation): `pending_customer_approval -> pending_submission`. */
  readonly grantCustomerApproval: (organisation: string, id: string) => Effect.Effect<Mandate, Errors>
  /**
   * The bank's day for mandates: mandates awaiting the payer's approval since an earlier day are
   * approved (the sandbox payer approves by the next day), submitted mandates become active or
   * failed as the bank answers, then pending ones are submitted; last, dormant Bacs mandates (no
   * payment for `BACS_DORMANCY_MONTHS`) expire. Run by the simulator once per day.
   */
  readonly processDay: (organisation: string) => Effect.Effect<void>
}>()("@paykit/engine/Mandates") {
  static readonly layer: Layer.Layer<
    Mandates,
    never,
    MandateRepository | CreditorRepository | CustomerBankAccountRepository | PaymentRepository | BankGateway | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    Mandates,
    Effect.gen(function*() {
      const mandates = yield* MandateRepository
      const creditors = yield* CreditorRepository
      const accounts = yield* CustomerBankAccountRepository
      const payments = yield* PaymentRepository
      const bank = yield* BankGateway
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeCreate = decodeInputEffect(MandateCreateRequest, ROOT)
      const decodeList = decodeInputEffect(MandateListParams, ROOT)
      const decodeMetadata = decodeInputEffect(MetadataUpdateRequest, ROOT)

      const present = (organisation: string, mandate: Mandate) =>
        Effect.gen(function*() {
          const creditor = yield* Effect.orDie(creditors.get(organisation, mandate.links.creditor))
          return withNextPossibleChargeDate(mandate, creditor.resource, yield* today())
        })

      const linksOf = (m: Pick<Mandate, "id" | "links">) => ({ mandate: m.id, customer: m.links.customer, creditor: m.links.creditor })

      const create = (organisation: string, input: unknown, options: MandateCreateOptions = {}) =>
        Effect.gen(function*() {
          const req = yield* decodeCreate(input)
          const account = yield* accounts.get(organisation, req.links.customer_bank_account).pipe(
            Effect.mapError(() => invalidField(ROOT, ["links", "customer_bank_account"], "must be a customer bank account of this organisation"))
          )
          if (!account.resource.enabled) {
            return yield* new InvalidState({ reason: "bank_account_disabled", message: "The customer bank account is disabled" })
          }
          const creditor = yield* resolveCreditor(creditors, organisation, ROOT, req.links.creditor)
          // The account's available debit schemes decide: a scheme it cannot be collected on is refused.
          const available = mandateSchemesOfAccount(account.resource.country_code)
          const scheme = req.scheme ?? available[0]
          if (scheme === undefined) {
            return yield* invalidField(ROOT, ["links", "customer_bank_account"], `is in a country no mandate scheme reaches (${account.resource.country_code ?? "unknown"})`)
          }
          if (!available.includes(scheme)) {
            return yield* invalidField(ROOT, ["scheme"], `is not available for this bank account (available: ${available.join(", ")})`)
          }
          const refusal = schemeRefusal(creditor.resource, scheme)
          if (refusal !== undefined) return yield* invalidField(ROOT, ["scheme"], refusal)
          if (scheme === "ach" && req.payer_ip_address === undefined && (req.authorisation_source ?? "web") === "web") {
            return yield* invalidField(ROOT, ["payer_ip_address"], "is required for ACH mandates authorised on the web")
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
          const { resource: mandate } = yield* applyCreation(mandates, {
            organisation,
            machine: mandateMachine,
            state: options.customerApproval === true || CUSTOMER_APPROVAL_SCHEMES.includes(scheme) ? "pending_customer_approval" : "pending_submission",
            resource: fields,
            cause: API_CAUSE("mandate_created"),
            links: linksOf(fields)
          })
          return yield* present(organisation, mandate)
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeMetadata(input)
          const current = yield* mandates.get(organisation, id)
          const next: Mandate = { ...current.resource, metadata: req.metadata ?? current.resource.metadata }
          yield* save(mandates, organisation, current, next)
          return yield* present(organisation, next)
        })

      const move = (organisation: string, current: Versioned<Mandate>, event: "cancel" | "reinstate" | "submit" | "activate" | "fail" | "customer_approval_granted" | "expire", cause: Cause, extra?: { readonly reason_code?: string }) =>
        applyTransition(mandates, {
          organisation,
          machine: mandateMachine,
          current,
          event,
          context: { reinstating: false },
          cause,
          links: linksOf(current.resource),
          ...(extra === undefined ? {} : { extra: { ...extra, scheme: current.resource.scheme } })
        })

      const cancel = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          yield* decodeMetadata(input ?? {})
          const current = yield* mandates.get(organisation, id)
          const next = yield* move(organisation, current, "cancel", API_CAUSE("mandate_cancelled", "The mandate was cancelled at your request."))
          return yield* present(organisation, next)
        })

      const reinstate = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          yield* decodeMetadata(input ?? {})
          const current = yield* mandates.get(organisation, id)
          const next = yield* move(organisation, current, "reinstate", API_CAUSE("mandate_reinstated", "The mandate was reinstated at your request."))
          return yield* present(organisation, next)
        })

      const grantCustomerApproval = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* mandates.get(organisation, id)
          const next = yield* move(organisation, current, "customer_approval_granted", { origin: "customer", cause: "customer_approval_granted", description: "The customer approved this mandate." })
          return yield* present(organisation, next)
        })

      /** The last day the mandate was used: its latest payment's charge date, else its creation. */
      const lastUseOf = (organisation: string, mandate: Mandate) =>
        Effect.map(payments.scan(organisation, { mandate: eq(mandate.id) }), (rows) =>
          rows.reduce<LocalDate>(
            (latest, row) => row.resource.status !== "cancelled" && row.resource.charge_date !== null && row.resource.charge_date > latest ? row.resource.charge_date : latest,
            unsafeLocalDate(mandate.created_at.slice(0, 10))
          ))

      const answerBank = (organisation: string, current: Versioned<Mandate>) =>
        Effect.gen(function*() {
          const account = yield* Effect.orDie(accounts.get(organisation, current.resource.links.customer_bank_account))
          const outcome = yield* bank.submitMandate({
            mandateId: current.resource.id,
            scheme: current.resource.scheme,
            accountHolderName: account.resource.account_holder_name
          })
          if (outcome.outcome === "activated") {
            return yield* move(organisation, current, "activate", { origin: "bank", cause: "mandate_activated", description: "The mandate has been successfully set up." })
          }
          return yield* move(organisation, current, "fail", { origin: "bank", cause: outcome.cause, description: outcome.description }, { reason_code: outcome.reason_code })
        })

      const expireIfDormant = (organisation: string, current: Versioned<Mandate>, day: LocalDate) =>
        Effect.gen(function*() {
          if (!isDormant(current.resource.scheme, yield* lastUseOf(organisation, current.resource), day)) return
          yield* move(organisation, current, "expire", { origin: "bank", cause: "mandate_expired", description: `The mandate expired because no payment was collected on it for ${BACS_DORMANCY_MONTHS} months.` })
        })

      /** Each step scans after the previous one has run, and each mandate is its own unit of work. */
      const processDay = (organisation: string) =>
        Effect.gen(function*() {
          const day = yield* today()
          const startOfDay = `${day}T00:00:00.000Z`
          yield* eachItem("mandates: customer approval", organisation, yield* mandates.scan(organisation, { status: eq("pending_customer_approval"), created_at: { op: "range", lt: startOfDay } }), idOfVersioned, (current) =>
            move(organisation, current, "customer_approval_granted", { origin: "customer", cause: "customer_approval_granted", description: "The customer approved this mandate." }))
          yield* eachItem("mandates: bank answers", organisation, yield* mandates.scan(organisation, { status: eq("submitted") }), idOfVersioned, (current) =>
            answerBank(organisation, current))
          yield* eachItem("mandates: submission", organisation, yield* mandates.scan(organisation, { status: eq("pending_submission") }), idOfVersioned, (current) =>
            move(organisation, current, "submit", { origin: "gocardless", cause: "mandate_submitted", description: "The mandate has been submitted to the banks." }))
          yield* eachItem("mandates: dormancy", organisation, yield* mandates.scan(organisation, { status: eq("active"), scheme: oneOf(DORMANCY_SCHEMES) }), idOfVersioned, (current) =>
            expireIfDormant(organisation, current, day))
        })

      return Mandates.of({
        create: (o, i, options) => run(create(o, i, options)),
        grantCustomerApproval: (o, id) => run(grantCustomerApproval(o, id)),
        get: (o, id) => Effect.flatMap(mandates.get(o, id), (v) => present(o, v.resource)),
        list: (o, p) =>
          Effect.gen(function*() {
            const params = yield* decodeList(p)
            const page = yield* mandates.list(o, toListQuery(params, {
              creditor: params.creditor === undefined ? undefined : eq(params.creditor),
              customer: params.customer === undefined ? undefined : eq(params.customer),
              customer_bank_account: params.customer_bank_account === undefined ? undefined : eq(params.customer_bank_account),
              reference: params.reference === undefined ? undefined : eq(params.reference),
              scheme: params.scheme === undefined ? undefined : oneOf(params.scheme),
              status: params.status === undefined ? undefined : oneOf(params.status)
            }))
            const items = yield* Effect.forEach(page.items, (m) => present(o, m))
            return { ...page, items }
          }),
        update: (o, id, i) => run(update(o, id, i)),
        cancel: (o, id, i) => run(cancel(o, id, i)),
        reinstate: (o, id, i) => run(reinstate(o, id, i)),
        processDay
      })
    })
  )
}
