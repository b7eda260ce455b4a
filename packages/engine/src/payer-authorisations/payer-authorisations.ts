import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, newId, type NotFound, now, type OperationError, type OrganisationId, requestPointer, type StorageError, type StorageFailure, type ValidationFailed } from "@paykit/core"
import { type Cause, type PayerAuthorisationEvent, payerAuthorisationMachine } from "@paykit/machines"
import { resolveBankDetails } from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { PayerAuthorisationRepository } from "./repositories.ts"
import type {
  IncompleteField,
  PayerAuthorisation,
  PayerAuthorisationBankAccount,
  PayerAuthorisationCustomer,
  PayerAuthorisationMandate
} from "./domain/payer-authorisations.ts"
import { PayerAuthorisationBody } from "./domain/payer-authorisation-commands.ts"
import { Customers } from "../customers/customers.ts"
import { Mandates } from "../mandates/mandates.ts"
import { createPayerResources } from "./resources.ts"
import { API_CAUSE, applyCreation, applyTransition, captureUnitOfWork } from "../kernel/support.ts"

const ROOT = "payer_authorisations"

// Every field may be missing (the payer completes it later), but what is there has its form, and no other field is taken.
const decodeBody = decodeAtBoundary(PayerAuthorisationBody, ROOT)

export { PayerAuthorisationBody }

const EMPTY_CUSTOMER: PayerAuthorisationCustomer = {
  email: null, given_name: null, family_name: null, company_name: null, address_line1: null, address_line2: null,
  address_line3: null, city: null, region: null, postal_code: null, country_code: null, locale: null,
  swedish_identity_number: null, danish_identity_number: null, metadata: {}
}
const EMPTY_BANK_ACCOUNT: PayerAuthorisationBankAccount = {
  account_holder_name: null, account_number: null, account_number_ending: null, account_number_suffix: null,
  account_type: null, bank_code: null, branch_code: null, country_code: null, currency: null, iban: null, metadata: {}
}
const EMPTY_MANDATE: PayerAuthorisationMandate = { reference: null, scheme: null, payer_ip_address: null, metadata: {} }

const blank = (v: string | null): boolean => v === null || v.trim() === ""

const incomplete = (path: ReadonlyArray<string>, message: string): IncompleteField => ({
  field: path[path.length - 1] ?? "",
  message,
  request_pointer: requestPointer(ROOT, path)
})

/**
 * What still keeps a payer authorisation from being submitted: the customer's name (or company),
 * email and address; a bank account that passes @paykit/validation's bank details rules (with
 * its holder's name); the identity number an SEK or DKK account needs; the payer's IP address for
 * ACH. An empty list means the details are complete.
 */
export const payerAuthorisationIncompleteFields = (pa: Pick<PayerAuthorisation, "customer" | "bank_account" | "mandate">): ReadonlyArray<IncompleteField> => {
  const out: Array<IncompleteField> = []
  const c = pa.customer
  for (const f of ["email", "address_line1", "city", "postal_code", "country_code"] as const) {
    if (blank(c[f])) out.push(incomplete(["customer", f], "is required"))
  }
  if (blank(c.company_name)) {
    if (blank(c.given_name)) out.push(incomplete(["customer", "given_name"], "is required unless company_name is given"))
    if (blank(c.family_name)) out.push(incomplete(["customer", "family_name"], "is required unless company_name is given"))
  }
  const b = pa.bank_account
  if (blank(b.account_holder_name)) out.push(incomplete(["bank_account", "account_holder_name"], "is required"))
  const resolution = resolveBankDetails(b, { rejectSekIban: true, checkCurrencyAndAccountType: true })
  if (!resolution.valid) {
    for (const i of resolution.issues) out.push(incomplete(["bank_account", ...i.path.map(String)], i.message))
  } else {
    const currency = resolution.account.currency
    if (currency === "SEK" && blank(c.swedish_identity_number)) out.push(incomplete(["customer", "swedish_identity_number"], "is required for SEK accounts"))
    if (currency === "DKK" && blank(c.danish_identity_number)) out.push(incomplete(["customer", "danish_identity_number"], "is required for DKK accounts"))
  }
  if (pa.mandate.scheme === "ach" && blank(pa.mandate.payer_ip_address)) out.push(incomplete(["mandate", "payer_ip_address"], "is required for ACH mandates"))
  return out
}

const withEnding = (b: PayerAuthorisationBankAccount): PayerAuthorisationBankAccount => {
  const resolution = resolveBankDetails(b, { rejectSekIban: true, checkCurrencyAndAccountType: true })
  return { ...b, account_number_ending: resolution.valid ? resolution.account.account_number_ending : null }
}

/** Only the fields present in the body change (PUT semantics of the real API). */
const merged = (pa: Pick<PayerAuthorisation, "customer" | "bank_account" | "mandate">, body: PayerAuthorisationBody) => {
  const next = {
    customer: { ...pa.customer, ...body.customer },
    bank_account: withEnding({ ...pa.bank_account, ...body.bank_account }),
    mandate: { ...pa.mandate, ...body.mandate }
  }
  return { ...next, incomplete_fields: payerAuthorisationIncompleteFields(next) }
}

type Errors = OperationError

interface Deps {
  readonly repository: PayerAuthorisationRepository["Service"]
  readonly customers: Customers["Service"]
  readonly mandates: Mandates["Service"]
}

const move = (
  deps: Pick<Deps, "repository">,
  organisation: OrganisationId,
  current: Versioned<PayerAuthorisation>,
  event: PayerAuthorisationEvent,
  cause: Cause,
  patch?: (p: PayerAuthorisation) => PayerAuthorisation
) =>
  applyTransition(deps.repository, {
    organisation,
    machine: payerAuthorisationMachine,
    current,
    event,
    context: { incomplete_field_count: current.resource.incomplete_fields.length },
    cause,
    links: {
      payer_authorisation: current.resource.id,
      ...(current.resource.links.customer === undefined ? {} : { customer: current.resource.links.customer }),
      ...(current.resource.links.mandate === undefined ? {} : { mandate: current.resource.links.mandate })
    },
    ...(patch === undefined ? {} : { patch })
  })

const create = (deps: Pick<Deps, "repository">, organisation: OrganisationId, body: PayerAuthorisationBody) =>
  Effect.gen(function*() {
    const fields: Omit<PayerAuthorisation, "status"> = {
      id: yield* newId("payer_authorisation"),
      created_at: yield* now,
      ...merged({ customer: EMPTY_CUSTOMER, bank_account: EMPTY_BANK_ACCOUNT, mandate: EMPTY_MANDATE }, body),
      links: {}
    }
    // "created" is the machine's initial state: a refusal would be a defect of the table.
    const created = yield* Effect.orDie(applyCreation(deps.repository, {
      organisation,
      machine: payerAuthorisationMachine,
      state: "created",
      resource: fields,
      cause: API_CAUSE("payer_authorisation_created"),
      links: { payer_authorisation: fields.id }
    }))
    return created.resource
  })

const update = (deps: Pick<Deps, "repository">, organisation: OrganisationId, id: string, body: PayerAuthorisationBody) =>
  Effect.gen(function*() {
    const current = yield* deps.repository.get(organisation, id)
    return yield* move(deps, organisation, current, "update", { origin: "api", cause: "payer_authorisation_updated" }, (p) => ({ ...p, ...merged(p, body) }))
  })

const submit = (deps: Pick<Deps, "repository">, organisation: OrganisationId, id: string) =>
  Effect.gen(function*() {
    const current = yield* deps.repository.get(organisation, id)
    return yield* move(deps, organisation, current, "submit", { origin: "payer", cause: "payer_authorisation_submitted" })
  })

/** Confirmation and resource creation, one unit of work: all of it, or none. */
const confirmAndCreate = (deps: Deps, organisation: OrganisationId, id: string) =>
  Effect.gen(function*() {
    const current = yield* deps.repository.get(organisation, id)
    const confirmed = yield* move(deps, organisation, current, "confirm", { origin: "payer", cause: "payer_authorisation_confirmed" })
    const links = yield* createPayerResources(deps, organisation, confirmed)
    const stored = yield* deps.repository.get(organisation, id)
    return yield* move(deps, organisation, stored, "resources_created",
      { origin: "gocardless", cause: "payer_authorisation_completed", description: "The customer, bank account and mandate have been created." },
      (p) => ({ ...p, links }))
  })

const failAfterConfirm = (deps: Pick<Deps, "repository">, organisation: OrganisationId, id: string, why: string) =>
  Effect.gen(function*() {
    const current = yield* deps.repository.get(organisation, id)
    yield* move(deps, organisation, current, "confirm", { origin: "payer", cause: "payer_authorisation_confirmed" })
    const stored = yield* deps.repository.get(organisation, id)
    return yield* move(deps, organisation, stored, "fail", { origin: "gocardless", cause: "payer_authorisation_failed", description: `The resources could not be created: ${why}` })
  })

export class PayerAuthorisations extends Context.Service<PayerAuthorisations, {
  readonly create: (organisation: OrganisationId, command: typeof PayerAuthorisationBody.Encoded) => Effect.Effect<PayerAuthorisation, ValidationFailed | StorageFailure>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<PayerAuthorisation, NotFound | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof PayerAuthorisationBody.Encoded) => Effect.Effect<PayerAuthorisation, Errors>
  readonly submit: (organisation: OrganisationId, id: string) => Effect.Effect<PayerAuthorisation, Errors>
  /**
   * Confirms and, in the same call, creates the customer, bank account and mandate: the real
   * API does this asynchronously and announces `completed` (or `failed`); here the answer is
   * already `completed` or `failed`, with the same events.
   */
  readonly confirm: (organisation: OrganisationId, id: string) => Effect.Effect<PayerAuthorisation, Errors>
}>()("@paykit/engine/PayerAuthorisations") {
  static readonly layer: Layer.Layer<
    PayerAuthorisations,
    never,
    PayerAuthorisationRepository | Customers | Mandates | Transactor | IdGenerator | EventLog
  > = Layer.effect(
    PayerAuthorisations,
    Effect.gen(function*() {
      const deps: Deps = { repository: yield* PayerAuthorisationRepository, customers: yield* Customers, mandates: yield* Mandates }
      const run = yield* captureUnitOfWork
      return PayerAuthorisations.of({
        create: (o, c) => Effect.flatMap(decodeBody(c), (body) => run(create(deps, o, body))),
        get: (o, id) => Effect.map(deps.repository.get(o, id), (v) => v.resource),
        update: (o, id, c) => Effect.flatMap(decodeBody(c), (body) => run(update(deps, o, id, body))),
        submit: (o, id) => run(submit(deps, o, id)),
        // When the resources cannot be created, the authorisation fails (and says why).
        confirm: (o, id) =>
          run(confirmAndCreate(deps, o, id)).pipe(
            Effect.catchTag("ValidationFailed", (e) => run(failAfterConfirm(deps, o, id, e.errors.map((x) => `${x.field} ${x.message}`).join("; "))))
          )
      })
    })
  )
}
