import { Context, Effect, Layer, Schema } from "effect"
import {
  CountryCode,
  type IdGenerator,
  type InvalidState,
  MandateScheme,
  Metadata,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  newId,
  now,
  requestPointer
} from "@paykit/core"
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
import { Customers } from "../collections/customers.ts"
import { Mandates } from "../collections/mandates.ts"
import { decodeCommand } from "../kernel/commands.ts"
import { CustomerCreateRequest } from "../collections/domain/customers.ts"
import { CustomerBankAccountCreateRequest } from "../collections/domain/customer-bank-accounts.ts"
import { MandateCreateRequest } from "../collections/domain/mandates.ts"
import { API_CAUSE, applyCreation, applyTransition, captureUnitOfWork } from "../kernel/support.ts"

const ROOT = "payer_authorisations"
const Text = Schema.optionalKey(Schema.NullOr(Schema.String))

export const PayerAuthorisationBody = Schema.Struct({
  customer: Schema.optionalKey(Schema.Struct({
    email: Text,
    given_name: Text,
    family_name: Text,
    company_name: Text,
    address_line1: Text,
    address_line2: Text,
    address_line3: Text,
    city: Text,
    region: Text,
    postal_code: Text,
    country_code: Schema.optionalKey(Schema.NullOr(CountryCode)),
    locale: Text,
    swedish_identity_number: Text,
    danish_identity_number: Text,
    metadata: Schema.optionalKey(Metadata)
  })),
  bank_account: Schema.optionalKey(Schema.Struct({
    account_holder_name: Text,
    account_number: Text,
    account_number_suffix: Text,
    account_type: Schema.optionalKey(Schema.NullOr(Schema.Literals(["savings", "checking"]))),
    bank_code: Text,
    branch_code: Text,
    country_code: Schema.optionalKey(Schema.NullOr(CountryCode)),
    currency: Text,
    iban: Text,
    metadata: Schema.optionalKey(Metadata)
  })),
  mandate: Schema.optionalKey(Schema.Struct({
    reference: Text,
    scheme: Schema.optionalKey(Schema.NullOr(MandateScheme)),
    payer_ip_address: Text,
    metadata: Schema.optionalKey(Metadata)
  }))
})
type Body = typeof PayerAuthorisationBody.Type

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
const merged = (pa: Pick<PayerAuthorisation, "customer" | "bank_account" | "mandate">, body: Body) => {
  const next = {
    customer: { ...pa.customer, ...body.customer },
    bank_account: withEnding({ ...pa.bank_account, ...body.bank_account }),
    mandate: { ...pa.mandate, ...body.mandate }
  }
  return { ...next, incomplete_fields: payerAuthorisationIncompleteFields(next) }
}

type Errors = ValidationFailed | InvalidState | NotFound

export class PayerAuthorisations extends Context.Service<PayerAuthorisations, {
  readonly create: (organisation: string, input: unknown) => Effect.Effect<PayerAuthorisation, ValidationFailed>
  readonly get: (organisation: string, id: string) => Effect.Effect<PayerAuthorisation, NotFound>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<PayerAuthorisation, Errors>
  readonly submit: (organisation: string, id: string) => Effect.Effect<PayerAuthorisation, Errors>
  /**
   * Confirms and, in the same call, creates the customer, bank account and mandate: the real
   * API does this asynchronously and announces `completed` (or `failed`); here the answer is
   * already `completed` or `failed`, with the same events.
   */
  readonly confirm: (organisation: string, id: string) => Effect.Effect<PayerAuthorisation, Errors>
}>()("@paykit/engine/PayerAuthorisations") {
  static readonly layer: Layer.Layer<
    PayerAuthorisations,
    never,
    PayerAuthorisationRepository | Customers | Mandates | Transactor | IdGenerator | EventLog
  > = Layer.effect(
    PayerAuthorisations,
    Effect.gen(function*() {
      const repository = yield* PayerAuthorisationRepository
      const customers = yield* Customers
      const mandates = yield* Mandates
      const run = yield* captureUnitOfWork
      const decode = decodeInputEffect(PayerAuthorisationBody, ROOT)

      const move = (organisation: string, current: Versioned<PayerAuthorisation>, event: PayerAuthorisationEvent, cause: Cause, patch?: (p: PayerAuthorisation) => PayerAuthorisation) =>
        applyTransition(repository, {
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

      const create = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const body = yield* decode(input)
          const fields: Omit<PayerAuthorisation, "status"> = {
            id: yield* newId("payer_authorisation"),
            created_at: yield* now,
            ...merged({ customer: EMPTY_CUSTOMER, bank_account: EMPTY_BANK_ACCOUNT, mandate: EMPTY_MANDATE }, body),
            links: {}
          }
          // "created" is the machine's initial state: a refusal would be a defect of the table.
          const created = yield* Effect.orDie(applyCreation(repository, {
            organisation,
            machine: payerAuthorisationMachine,
            state: "created",
            resource: fields,
            cause: API_CAUSE("payer_authorisation_created"),
            links: { payer_authorisation: fields.id }
          }))
          return created.resource
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const body = yield* decode(input)
          const current = yield* repository.get(organisation, id)
          return yield* move(organisation, current, "update", { origin: "api", cause: "payer_authorisation_updated" }, (p) => ({ ...p, ...merged(p, body) }))
        })

      const submit = (organisation: string, id: string) =>
        Effect.flatMap(repository.get(organisation, id), (current) =>
          move(organisation, current, "submit", { origin: "payer", cause: "payer_authorisation_submitted" }))

      /** Confirmation and resource creation, one unit of work: all of it, or none. */
      const confirmAndCreate = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* repository.get(organisation, id)
          const confirmed = yield* move(organisation, current, "confirm", { origin: "payer", cause: "payer_authorisation_confirmed" })
          const { customer: c, bank_account: b, mandate: m } = confirmed
          const customer = yield* customers.create(organisation, yield* decodeCommand(CustomerCreateRequest, "customers")({
            email: c.email, given_name: c.given_name, family_name: c.family_name, company_name: c.company_name,
            address_line1: c.address_line1, address_line2: c.address_line2, address_line3: c.address_line3, city: c.city,
            region: c.region, postal_code: c.postal_code, country_code: c.country_code, language: c.locale,
            swedish_identity_number: c.swedish_identity_number, danish_identity_number: c.danish_identity_number, metadata: c.metadata
          }))
          const resolution = resolveBankDetails(b, { rejectSekIban: true, checkCurrencyAndAccountType: true })
          const local = resolution.valid && resolution.account.iban !== null
            ? { iban: resolution.account.iban }
            : {
              ...(b.account_number === null ? {} : { account_number: b.account_number }),
              ...(b.branch_code === null ? {} : { branch_code: b.branch_code }),
              ...(b.bank_code === null ? {} : { bank_code: b.bank_code }),
              ...(b.account_number_suffix === null ? {} : { account_number_suffix: b.account_number_suffix }),
              ...(b.country_code === null ? {} : { country_code: b.country_code })
            }
          const account = yield* customers.createBankAccount(organisation, yield* decodeCommand(CustomerBankAccountCreateRequest, "customer_bank_accounts")({
            account_holder_name: b.account_holder_name ?? "",
            ...local,
            ...(b.currency === null ? {} : { currency: b.currency }),
            ...(b.account_type === null ? {} : { account_type: b.account_type }),
            metadata: b.metadata,
            links: { customer: customer.id }
          }))
          const mandate = yield* mandates.create(organisation, yield* decodeCommand(MandateCreateRequest, "mandates")({
            ...(m.scheme === null ? {} : { scheme: m.scheme }),
            ...(m.reference === null ? {} : { reference: m.reference }),
            ...(m.payer_ip_address === null ? {} : { payer_ip_address: m.payer_ip_address }),
            metadata: m.metadata,
            links: { customer_bank_account: account.id }
          }))
          const stored = yield* repository.get(organisation, id)
          return yield* move(organisation, stored, "resources_created",
            { origin: "gocardless", cause: "payer_authorisation_completed", description: "The customer, bank account and mandate have been created." },
            (p) => ({ ...p, links: { customer: customer.id, bank_account: account.id, mandate: mandate.id } }))
        })

      /** When the resources cannot be created, the authorisation fails (and says why). */
      const confirm = (organisation: string, id: string) =>
        run(confirmAndCreate(organisation, id)).pipe(
          Effect.catchTag("ValidationFailed", (e) => run(failAfterConfirm(organisation, id, e.errors.map((x) => `${x.field} ${x.message}`).join("; "))))
        )

      const failAfterConfirm = (organisation: string, id: string, why: string) =>
        Effect.gen(function*() {
          const current = yield* repository.get(organisation, id)
          yield* move(organisation, current, "confirm", { origin: "payer", cause: "payer_authorisation_confirmed" })
          const stored = yield* repository.get(organisation, id)
          return yield* move(organisation, stored, "fail", { origin: "gocardless", cause: "payer_authorisation_failed", description: `The resources could not be created: ${why}` })
        })

      return PayerAuthorisations.of({
        create: (o, i) => run(create(o, i)),
        get: (o, id) => Effect.map(repository.get(o, id), (v) => v.resource),
        update: (o, id, i) => run(update(o, id, i)),
        submit: (o, id) => run(submit(o, id)),
        confirm
      })
    })
  )
}
