import { Context, Effect, Layer, Schema } from "effect"
import {
  type IdGenerator,
  type InvalidState,
  type NotFound,
  type Timestamp,
  type ValidationFailed,
  decodeInputEffect,
  newId,
  now,
  timestampToMillis,
  IdOf
} from "@paykit/core"
import { type Cause, type OutboundPaymentImportEvent, OUTBOUND_PAYMENT_IMPORT_STATUSES, outboundPaymentImportMachine } from "@paykit/machines"
import { NonBlankString, OUTBOUND_PAYMENT_IMPORTS, validateOutboundPaymentImportCreate } from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository } from "../collections/repositories.ts"
import { OutboundPaymentImportEntryRepository, OutboundPaymentImportRepository } from "./repositories.ts"
import type { CustomerBankAccount } from "../collections/domain/customer-bank-accounts.ts"
import type {
  EntryCounts,
  EntryValidationErrors,
  OutboundPaymentImport,
  OutboundPaymentImportEntry
} from "./domain/outbound-payment-imports.ts"
import { listFields, pageFields, toListQuery } from "../kernel/list-params.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { OutboundPayments } from "./outbound-payments.ts"
import { applyCreation, applyTransition, insertNew, save, captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"

const ENTRIES = "outbound_payment_import_entries"

/**
 * An import nobody authorises is cancelled (`expired` event) this long after its creation. The
 * spec says unauthorised imports expire automatically but gives no period; seven days is this
 * engine's choice.
 */
export const OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS = 7
const WINDOW_MILLIS = OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS * 24 * 60 * 60 * 1000

/** The statuses from which an import can still expire (before authorisation). */
const UNAUTHORISED: ReadonlyArray<OutboundPaymentImport["status"]> = ["created", "validating", "valid"]

/**
 * The dashboard where a user reviews and authorises imports. `authorisation_url` is
 * `<base>/outbound_payment_imports/<id>/authorise`; an embedding application provides its own base.
 */
export const DashboardBaseUrl = Context.Reference<string>("@paykit/engine/DashboardBaseUrl", {
  defaultValue: () => "https://dashboard.paykit.example"
})

export const authorisationUrlOf = (base: string, id: string): string =>
  `${base.replace(/\/+$/, "")}/outbound_payment_imports/${id}/authorise`

export const OutboundPaymentImportListParams = Schema.Struct({
  ...listFields("outbound_payment_import"),
  status: Schema.optionalKey(Schema.Literals(OUTBOUND_PAYMENT_IMPORT_STATUSES))
})

export const OutboundPaymentImportEntryListParams = Schema.Struct({ ...pageFields("outbound_payment_import_entry"), outbound_payment_import: IdOf("outbound_payment_import") })

const AuthorisingUser = NonBlankString

const zeroCounts = (total: number): EntryCounts => ({
  total,
  valid: 0,
  invalid: 0,
  verified: 0,
  verified_with_full_match: 0,
  verified_with_partial_match: 0,
  verified_with_no_match: 0,
  verified_with_unable_to_match: 0,
  processed: 0,
  failed_to_process: 0
})

/** An engine error on one entry as the real API's per-field `validation_errors`. */
const entryErrorsOf = (error: ValidationFailed | InvalidState | NotFound): EntryValidationErrors => {
  if (error._tag !== "ValidationFailed") return { outbound_payment: { recipient_bank_account: [error.message] } }
  const byField: { amount?: Array<string>; reference?: Array<string>; recipient_bank_account?: Array<string> } = {}
  for (const e of error.errors) {
    const key = e.field === "amount" || e.field === "reference" ? e.field : "recipient_bank_account"
    byField[key] = [...(byField[key] ?? []), e.message]
  }
  return { outbound_payment: byField }
}

const linksOf = (i: Pick<OutboundPaymentImport, "id" | "links">) => ({ outbound_payment_import: i.id, creditor: i.links.creditor })

type Errors = ValidationFailed | InvalidState | NotFound

export class OutboundPaymentImports extends Context.Service<OutboundPaymentImports, {
  /** Stores the import and its entries and starts validation: answers `validating`. */
  readonly create: (organisation: string, input: unknown) => Effect.Effect<OutboundPaymentImport, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<OutboundPaymentImport, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<OutboundPaymentImport>, ValidationFailed>
  /** `GET /outbound_payment_import_entries?outbound_payment_import=IM...` */
  readonly listEntries: (organisation: string, params: unknown) => Effect.Effect<Page<OutboundPaymentImportEntry>, ValidationFailed>
  /**
   * A dashboard user (named by `user`) authorises a valid import: it moves to processing, one
   * outbound payment is created (and approved, when the payment account covers it) per entry,
   * and the import ends processed. Not an API endpoint: the dashboard calls it.
   */
  readonly authorise: (organisation: string, id: string, user: string) => Effect.Effect<OutboundPaymentImport, Errors>
  readonly cancel: (organisation: string, id: string) => Effect.Effect<OutboundPaymentImport, Errors>
  /**
   * Simulator hook: validation of every `validating` import completes. An entry whose recipient
   * account is missing, disabled or not GBP is invalid; every other entry is checked by
   * confirmation of payee. Any invalid entry makes the import invalid.
   */
  readonly validatePending: (organisation: string) => Effect.Effect<ReadonlyArray<OutboundPaymentImport>>
  /** Simulator hook: imports not authorised within the window are cancelled (`expired`). */
  readonly expireUnauthorised: (organisation: string, now: Timestamp) => Effect.Effect<ReadonlyArray<OutboundPaymentImport>>
}>()("@paykit/engine/OutboundPaymentImports") {
  static readonly layer: Layer.Layer<
    OutboundPaymentImports,
    never,
    | OutboundPaymentImportRepository
    | OutboundPaymentImportEntryRepository
    | CreditorRepository
    | CustomerBankAccountRepository
    | NameVerifier
    | OutboundPayments
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    OutboundPaymentImports,
    Effect.gen(function*() {
      const imports = yield* OutboundPaymentImportRepository
      const entries = yield* OutboundPaymentImportEntryRepository
      const creditors = yield* CreditorRepository
      const customerAccounts = yield* CustomerBankAccountRepository
      const verifier = yield* NameVerifier
      const outbound = yield* OutboundPayments
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeList = decodeInputEffect(OutboundPaymentImportListParams, OUTBOUND_PAYMENT_IMPORTS)
      const decodeEntryList = decodeInputEffect(OutboundPaymentImportEntryListParams, ENTRIES)
      const decodeUser = decodeInputEffect(AuthorisingUser, "user")

      const move = (
        organisation: string,
        current: Versioned<OutboundPaymentImport>,
        event: OutboundPaymentImportEvent,
        cause: Cause,
        counts?: EntryCounts
      ) =>
        applyTransition(imports, {
          organisation,
          machine: outboundPaymentImportMachine,
          current,
          event,
          context: { entry_counts: counts ?? current.resource.entry_counts },
          cause,
          links: linksOf(current.resource),
          ...(counts === undefined ? {} : { patch: (i: OutboundPaymentImport) => ({ ...i, entry_counts: counts }) })
        })

      const entriesOf = (organisation: string, id: string) =>
        entries.scan(organisation, { outbound_payment_import: eq(id) })

      const create = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* Effect.fromResult(validateOutboundPaymentImportCreate(input))
          const creditor = yield* resolveCreditor(creditors, organisation, OUTBOUND_PAYMENT_IMPORTS, req.links?.creditor)
          const id = yield* newId("outbound_payment_import")
          const created_at = yield* now
          const batch: Omit<OutboundPaymentImport, "status"> = {
            id,
            created_at,
            amount_sum: req.entry_items.reduce((sum, item) => sum + item.amount, 0),
            authorisation_url: authorisationUrlOf(yield* DashboardBaseUrl, id),
            currency: "GBP",
            entry_counts: zeroCounts(req.entry_items.length),
            links: { creditor: creditor.resource.id }
          }
          const stored = yield* applyCreation(imports, {
            organisation,
            machine: outboundPaymentImportMachine,
            state: "created",
            resource: batch,
            cause: { origin: "api", cause: "outbound_payment_import_created", description: "Outbound payment import created via the API." },
            links: linksOf(batch)
          })
          for (const item of req.entry_items) {
            yield* insertNew(entries, organisation, {
              id: yield* newId("outbound_payment_import_entry"),
              created_at,
              amount: item.amount,
              reference: item.reference ?? null,
              scheme: item.scheme,
              metadata: item.metadata ?? {},
              processed_at: null,
              validation_errors: null,
              verification_result: null,
              links: { outbound_payment_import: id, recipient_bank_account: item.recipient_bank_account_id, outbound_payment: null }
            })
          }
          return yield* move(organisation, stored, "start_validation", {
            origin: "gocardless",
            cause: "outbound_payment_import_validating",
            description: "Validation of the import's entries has begun."
          })
        })

      /** Why an entry's recipient cannot be paid, or undefined when it can. */
      const recipientProblem = (
        organisation: string,
        accountId: string
      ): Effect.Effect<{ readonly problem: string } | { readonly problem: null; readonly account: CustomerBankAccount }> =>
        Effect.match(customerAccounts.get(organisation, accountId), {
          onFailure: () => ({ problem: "must be a customer bank account of this organisation" }),
          onSuccess: (a) =>
            !a.resource.enabled
              ? { problem: "must be an enabled bank account" }
              : a.resource.currency !== "GBP"
              ? { problem: "must be a GBP bank account (outbound payments are GBP only)" }
              : { problem: null, account: a.resource }
        })

      const validateOne = (organisation: string, current: Versioned<OutboundPaymentImport>) =>
        Effect.gen(function*() {
          const counts = { ...zeroCounts(current.resource.entry_counts.total) }
          for (const entry of yield* entriesOf(organisation, current.resource.id)) {
            const checked = yield* recipientProblem(organisation, entry.resource.links.recipient_bank_account)
            if (checked.problem !== null) {
              counts.invalid++
              yield* save(entries, organisation, entry, {
                ...entry.resource,
                validation_errors: { outbound_payment: { recipient_bank_account: [checked.problem] } }
              })
              continue
            }
            counts.valid++
            const verification = yield* verifier.verify({
              account_holder_name: checked.account.account_holder_name,
              account_number_ending: checked.account.account_number_ending,
              country_code: checked.account.country_code
            })
            counts.verified++
            counts[`verified_with_${verification.result}`]++
            yield* save(entries, organisation, entry, { ...entry.resource, verification_result: verification.result })
          }
          return yield* counts.invalid === 0
            ? move(organisation, current, "validation_succeeded", {
              origin: "gocardless",
              cause: "outbound_payment_import_valid",
              description: "Every entry of the import is valid; it awaits authorisation in the dashboard."
            }, counts)
            : move(organisation, current, "validation_failed", {
              origin: "gocardless",
              cause: "outbound_payment_import_invalid",
              description: `${counts.invalid} of ${counts.total} entries of the import are invalid.`
            }, counts)
        })

      const validatePending = (organisation: string) =>
        Effect.gen(function*() {
          const done: Array<OutboundPaymentImport> = []
          yield* eachItem("import validation", organisation, yield* imports.scan(organisation, { status: eq("validating") }), idOfVersioned, (v) =>
            Effect.flatMap(imports.get(organisation, v.resource.id), (c) => Effect.map(validateOne(organisation, c), (next) => done.push(next))))
          return done
        })

      const authorise = (organisation: string, id: string, user: string) =>
        Effect.gen(function*() {
          const by = yield* decodeUser(user)
          const current = yield* imports.get(organisation, id)
          const processing = yield* move(organisation, current, "authorise", {
            origin: "api",
            cause: "outbound_payment_import_authorised",
            description: `The import was authorised in the dashboard by ${by}.`
          })
          const counts = { ...processing.entry_counts }
          for (const entry of yield* entriesOf(organisation, id)) {
            if (entry.resource.validation_errors !== null) continue
            const at = yield* now
            const created = yield* Effect.result(outbound.create(organisation, {
              amount: entry.resource.amount,
              scheme: entry.resource.scheme,
              ...(entry.resource.reference === null ? {} : { reference: entry.resource.reference }),
              metadata: entry.resource.metadata,
              links: { creditor: processing.links.creditor, recipient_bank_account: entry.resource.links.recipient_bank_account, outbound_payment_import: id }
            }))
            if (created._tag === "Failure") {
              counts.failed_to_process++
              yield* save(entries, organisation, entry, { ...entry.resource, processed_at: at, validation_errors: entryErrorsOf(created.failure) })
              continue
            }
            // Authorising the import approves its payments; one the balance cannot cover stays
            // pending approval for the creditor to approve once the account is funded.
            yield* outbound.approve(organisation, created.success.id).pipe(
              Effect.catchIf((e) => e._tag === "InvalidState" && e.reason === "insufficient_balance", () => Effect.void)
            )
            counts.processed++
            yield* save(entries, organisation, entry, {
              ...entry.resource,
              processed_at: at,
              links: { ...entry.resource.links, outbound_payment: created.success.id }
            })
          }
          const latest = yield* imports.get(organisation, id)
          return yield* move(organisation, latest, "processing_finished", {
            origin: "gocardless",
            cause: "outbound_payment_import_processed",
            description: `${counts.processed} outbound payments were created from the import.`
          }, counts)
        })

      const cancel = (organisation: string, id: string) =>
        Effect.flatMap(imports.get(organisation, id), (current) =>
          move(organisation, current, "cancel", {
            origin: "api",
            cause: "outbound_payment_import_cancelled",
            description: "The import was cancelled at your request."
          }))

      const expireUnauthorised = (organisation: string, at: Timestamp) =>
        Effect.gen(function*() {
          const expired: Array<OutboundPaymentImport> = []
          const cutoff = timestampToMillis(at) - WINDOW_MILLIS
          const late = (yield* imports.scan(organisation, { status: oneOf(UNAUTHORISED) })).filter((v) => timestampToMillis(v.resource.created_at) <= cutoff)
          yield* eachItem("import expiry", organisation, late, idOfVersioned, (v) =>
            Effect.flatMap(imports.get(organisation, v.resource.id), (c) =>
              Effect.map(move(organisation, c, "expire", {
                origin: "gocardless",
                cause: "outbound_payment_import_expired",
                description: `The import was not authorised within ${OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS} days.`
              }), (next) => expired.push(next))))
          return expired
        })

      return OutboundPaymentImports.of({
        create: (o, i) => run(create(o, i)),
        get: (o, id) => Effect.map(imports.get(o, id), (v) => v.resource),
        list: (o, p) =>
          Effect.flatMap(decodeList(p), (params) =>
            imports.list(o, toListQuery(params, { status: params.status === undefined ? undefined : eq(params.status) }))),
        listEntries: (o, p) =>
          Effect.flatMap(decodeEntryList(p), (params) =>
            entries.list(o, toListQuery(params, { outbound_payment_import: eq(params.outbound_payment_import) }))),
        authorise: (o, id, user) => run(authorise(o, id, user)),
        cancel: (o, id) => run(cancel(o, id)),
        validatePending,
        expireUnauthorised
      })
    })
  )
}
