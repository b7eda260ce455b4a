import { Context, Effect, Layer, Schema } from "effect"
import {
  CountryCode,
  Currency,
  DESCRIPTION_MAX_LENGTH,
  type IdGenerator,
  InvalidState,
  LocalDate,
  Metadata,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  invalidField,
  newId,
  now,
  IdOf
} from "@paykit/core"
import { Name, NonBlankString, nonBlankUpTo, optionalNullable } from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import type { Page } from "../kernel/ports/list-query.ts"
import { eq } from "../kernel/ports/list-query.ts"
import { CreditorBankAccountRepository, CreditorRepository, VerificationDetailRepository } from "./repositories.ts"
import type { CreditorBankAccount } from "./domain/creditor-bank-accounts.ts"
import { CREDITOR_TYPES, type Creditor, type CreditorLinks, type SchemeIdentifier } from "./domain/creditors.ts"
import type { VerificationDetail } from "./domain/verification-details.ts"
import { idFilter, ListParams, listFields, pageFields, toListQuery } from "../kernel/list-params.ts"
import { schemeIdentifierTemplates } from "./scheme-identifiers.ts"
import { AddressRequestFields, addressLinesOf } from "../kernel/address-request.ts"
import { API_CAUSE, emit, insertNew, save, captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"
// `bank_reference_prefix` is checked by the rule payouts decode it with: nothing accepted here fails there.
import { BankReferencePrefix } from "@paykit/money"

const ROOT = "creditors"


export const CreditorCreateRequest = Schema.Struct({
  name: Name,
  country_code: CountryCode,
  creditor_type: Schema.Literals(CREDITOR_TYPES),
  bank_reference_prefix: Schema.optionalKey(BankReferencePrefix),
  fx_payout_currency: optionalNullable(Currency),
  ...AddressRequestFields,
  links: Schema.optionalKey(Schema.Struct({}))
})

export const CreditorUpdateRequest = Schema.Struct({
  name: Schema.optionalKey(Name),
  bank_reference_prefix: Schema.optionalKey(BankReferencePrefix),
  ...AddressRequestFields,
  links: Schema.optionalKey(Schema.Struct({
    default_gbp_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_eur_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_sek_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_dkk_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_aud_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_nzd_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_cad_payout_account: Schema.optionalKey(IdOf("creditor_bank_account")),
    default_usd_payout_account: Schema.optionalKey(IdOf("creditor_bank_account"))
  }))
})

export const CreditorBankAccountCreateRequest = Schema.Struct({
  account_holder_name: Name,
  account_number: Schema.optionalKey(Schema.String.check(Schema.makeFilter((s: string) => /^\d{6,17}$/.test(s), { message: "must be 6 to 17 digits" }))),
  branch_code: Schema.optionalKey(Schema.String),
  iban: Schema.optionalKey(Schema.String.check(Schema.makeFilter((s: string) => /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(s.replace(/\s/g, "")), { message: "must be an IBAN" }))),
  country_code: CountryCode,
  currency: Currency,
  account_type: optionalNullable(Schema.Literals(["savings", "checking"])),
  set_as_default_payout_account: Schema.optionalKey(Schema.Boolean),
  metadata: Schema.optionalKey(Metadata),
  links: Schema.Struct({ creditor: IdOf("creditor") })
})

const DirectorRequest = Schema.Struct({
  given_name: Name,
  family_name: Name,
  date_of_birth: LocalDate,
  street: NonBlankString,
  city: NonBlankString,
  postal_code: NonBlankString,
  country_code: CountryCode
})

export const VerificationDetailCreateRequest = Schema.Struct({
  name: Name,
  company_number: NonBlankString,
  description: nonBlankUpTo(DESCRIPTION_MAX_LENGTH),
  address_line1: NonBlankString,
  address_line2: optionalNullable(Schema.String),
  address_line3: optionalNullable(Schema.String),
  city: NonBlankString,
  postal_code: NonBlankString,
  directors: Schema.Array(DirectorRequest),
  links: Schema.Struct({ creditor: IdOf("creditor") })
})

export const VerificationDetailListParams = Schema.Struct({ ...pageFields("verification_detail"), creditor: IdOf("creditor") })

/** `GET /creditor_bank_accounts` parameters (the real API's: `creditor`, `enabled`, `created_at`). */
export const CreditorBankAccountListParams = Schema.Struct({
  ...listFields("creditor_bank_account"),
  creditor: idFilter("creditor"),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})

const payoutLinkKey = (currency: Currency): keyof CreditorLinks =>
  `default_${currency.toLowerCase()}_payout_account` as keyof CreditorLinks

/** A prefix from the trading name: its letters and digits, upper-cased, at most 10. */
const prefixOf = (name: string): string => {
  const letters = name.toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 10)
  return letters.length > 0 ? letters : "PAYKIT"
}

const endingOf = (digits: string, currency: Currency): string => digits.slice(currency === "NZD" ? -4 : -2)

type Errors = ValidationFailed | InvalidState | NotFound

export class Creditors extends Context.Service<Creditors, {
  readonly create: (organisation: string, input: unknown) => Effect.Effect<Creditor, ValidationFailed>
  readonly get: (organisation: string, id: string) => Effect.Effect<Creditor, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<Creditor>, ValidationFailed>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<Creditor, Errors>
  readonly createBankAccount: (organisation: string, input: unknown) => Effect.Effect<CreditorBankAccount, Errors>
  readonly getBankAccount: (organisation: string, id: string) => Effect.Effect<CreditorBankAccount, NotFound>
  readonly listBankAccounts: (organisation: string, params: unknown) => Effect.Effect<Page<CreditorBankAccount>, ValidationFailed>
  /**
   * Disables an account for good (a new account is created to use the details again). An account
   * that is its creditor's default payout account in its currency stops being the default, so no
   * payout is sent to a disabled account; payouts wait until another default is set. Disabling a
   * disabled account answers it unchanged.
   */
  readonly disableBankAccount: (organisation: string, id: string) => Effect.Effect<CreditorBankAccount, NotFound | InvalidState>
  readonly createVerificationDetail: (organisation: string, input: unknown) => Effect.Effect<VerificationDetail, Errors>
  readonly listVerificationDetails: (organisation: string, params: unknown) => Effect.Effect<Page<VerificationDetail>, ValidationFailed>
  /**
   * The review of submitted verification details completes: an `in_review` creditor becomes
   * `successful`, and so do its bank accounts awaiting review. Run by the simulator.
   */
  readonly completeReviews: (organisation: string) => Effect.Effect<ReadonlyArray<Creditor>>
}>()("@paykit/engine/Creditors") {
  static readonly layer: Layer.Layer<
    Creditors,
    never,
    CreditorRepository | CreditorBankAccountRepository | VerificationDetailRepository | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    Creditors,
    Effect.gen(function*() {
      const creditors = yield* CreditorRepository
      const accounts = yield* CreditorBankAccountRepository
      const details = yield* VerificationDetailRepository
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeCreate = decodeInputEffect(CreditorCreateRequest, ROOT)
      const decodeUpdate = decodeInputEffect(CreditorUpdateRequest, ROOT)
      const decodeList = decodeInputEffect(ListParams, ROOT)
      const decodeAccount = decodeInputEffect(CreditorBankAccountCreateRequest, "creditor_bank_accounts")
      const decodeAccountList = decodeInputEffect(CreditorBankAccountListParams, "creditor_bank_accounts")
      const decodeDetail = decodeInputEffect(VerificationDetailCreateRequest, "verification_details")
      const decodeDetailList = decodeInputEffect(VerificationDetailListParams, "verification_details")

      const create = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeCreate(input)
          const id = yield* newId("creditor")
          const created_at = yield* now
          // The creditor and each of its scheme identifiers carry the same address.
          const address = { ...addressLinesOf(req), country_code: req.country_code }
          const identifiers: Array<SchemeIdentifier> = []
          for (const t of schemeIdentifierTemplates(req.country_code)) {
            identifiers.push({
              id: yield* newId("scheme_identifier"),
              created_at,
              name: req.name,
              scheme: t.scheme,
              reference: null,
              status: "active",
              minimum_advance_notice: t.minimum_advance_notice,
              ...address,
              email: null,
              phone_number: null,
              currency: t.currency,
              can_specify_mandate_reference: false
            })
          }
          const creditor: Creditor = {
            id,
            created_at,
            name: req.name,
            ...address,
            creditor_type: req.creditor_type,
            bank_reference_prefix: req.bank_reference_prefix ?? prefixOf(req.name),
            can_create_refunds: true,
            logo_url: null,
            verification_status: "action_required",
            fx_payout_currency: req.fx_payout_currency ?? null,
            mandate_imports_enabled: false,
            custom_payment_pages_enabled: false,
            merchant_responsible_for_notifications: false,
            links: {
              default_aud_payout_account: null,
              default_cad_payout_account: null,
              default_dkk_payout_account: null,
              default_eur_payout_account: null,
              default_gbp_payout_account: null,
              default_nzd_payout_account: null,
              default_sek_payout_account: null,
              default_usd_payout_account: null
            },
            scheme_identifiers: identifiers
          }
          yield* insertNew(creditors, organisation, creditor)
          yield* emit(organisation, { resource_type: "creditors", action: "created", links: { creditor: id }, cause: API_CAUSE("creditor_created") })
          return creditor
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeUpdate(input)
          const current = yield* creditors.get(organisation, id)
          const links = { ...current.resource.links }
          for (const [key, accountId] of Object.entries(req.links ?? {})) {
            if (accountId === undefined) continue
            const account = yield* accounts.get(organisation, accountId).pipe(
              Effect.mapError(() => invalidField(ROOT, ["links", key], "must be a bank account of this creditor"))
            )
            if (account.resource.links.creditor !== id || payoutLinkKey(account.resource.currency) !== key) {
              return yield* invalidField(ROOT, ["links", key], "must be an enabled bank account of this creditor in that currency")
            }
            links[key as keyof CreditorLinks] = accountId
          }
          const { links: _links, ...fields } = req
          const next: Creditor = { ...current.resource, ...fields, links }
          yield* save(creditors, organisation, current, next)
          yield* emit(organisation, { resource_type: "creditors", action: "updated", links: { creditor: id }, cause: API_CAUSE("creditor_updated") })
          return next
        })

      const createBankAccount = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeAccount(input)
          const creditor = yield* creditors.get(organisation, req.links.creditor)
          const digits = req.iban !== undefined ? req.iban.replace(/\D/g, "") : req.account_number
          if (digits === undefined) {
            return yield* invalidField("creditor_bank_accounts", ["account_number"], "is required unless an iban is given")
          }
          const account: CreditorBankAccount = {
            id: yield* newId("creditor_bank_account"),
            created_at: yield* now,
            account_holder_name: req.account_holder_name,
            account_number_ending: endingOf(digits, req.currency),
            account_type: req.account_type ?? null,
            bank_name: null,
            country_code: req.country_code,
            currency: req.currency,
            enabled: true,
            // An account of an already verified creditor needs its own review (spec: verification
            // may be required again after a payout bank account change).
            verification_status: "in_review",
            metadata: req.metadata ?? {},
            links: { creditor: creditor.resource.id }
          }
          yield* insertNew(accounts, organisation, account)
          const makeDefault = req.set_as_default_payout_account === true ||
            creditor.resource.links[payoutLinkKey(req.currency)] === null
          if (makeDefault) {
            const links = { ...creditor.resource.links, [payoutLinkKey(req.currency)]: account.id }
            const next: Creditor = {
              ...creditor.resource,
              links,
              verification_status: creditor.resource.verification_status === "successful" ? "in_review" : creditor.resource.verification_status
            }
            yield* save(creditors, organisation, creditor, next)
          }
          return account
        })

      const disableBankAccount = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* accounts.get(organisation, id)
          if (!current.resource.enabled) return current.resource
          const next: CreditorBankAccount = { ...current.resource, enabled: false }
          yield* save(accounts, organisation, current, next)
          // An account's creditor exists for as long as the account: a missing one is a storage defect.
          const owner = yield* Effect.orDie(creditors.get(organisation, next.links.creditor))
          const link = payoutLinkKey(next.currency)
          if (owner.resource.links[link] === id) {
            const unlinked: Creditor = { ...owner.resource, links: { ...owner.resource.links, [link]: null } }
            yield* save(creditors, organisation, owner, unlinked)
          }
          yield* emit(organisation, {
            resource_type: "creditor_bank_accounts",
            action: "disabled",
            links: { creditor: next.links.creditor, creditor_bank_account: id },
            cause: API_CAUSE("creditor_bank_account_disabled")
          })
          return next
        })

      const createVerificationDetail = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeDetail(input)
          const creditor = yield* creditors.get(organisation, req.links.creditor)
          if (req.directors.length === 0) {
            return yield* invalidField("verification_details", ["directors"], "must name at least one director")
          }
          const detail: VerificationDetail = {
            id: yield* newId("verification_detail"),
            created_at: yield* now,
            name: req.name,
            company_number: req.company_number,
            description: req.description,
            address_line1: req.address_line1,
            address_line2: req.address_line2 ?? null,
            address_line3: req.address_line3 ?? null,
            city: req.city,
            postal_code: req.postal_code,
            region: null,
            country_code: creditor.resource.country_code,
            directors: req.directors,
            links: { creditor: creditor.resource.id }
          }
          yield* insertNew(details, organisation, detail)
          if (creditor.resource.verification_status === "action_required") {
            const inReview: Creditor = { ...creditor.resource, verification_status: "in_review" }
            yield* save(creditors, organisation, creditor, inReview)
          }
          return detail
        })

      /** Each account and each creditor reviewed is its own unit of work. */
      const completeReviews = (organisation: string) =>
        Effect.gen(function*() {
          const done: Array<Creditor> = []
          const accountsInReview = (yield* accounts.scan(organisation, {})).filter((a) => a.resource.verification_status === "in_review")
          yield* eachItem("creditor bank account reviews", organisation, accountsInReview, idOfVersioned, (account) =>
            save(accounts, organisation, account, { ...account.resource, verification_status: "successful" } satisfies CreditorBankAccount))
          const creditorsInReview = (yield* creditors.scan(organisation, {})).filter((c) => c.resource.verification_status === "in_review")
          yield* eachItem("creditor reviews", organisation, creditorsInReview, idOfVersioned, (current) =>
            Effect.gen(function*() {
              const next: Creditor = { ...current.resource, verification_status: "successful" }
              yield* save(creditors, organisation, current, next)
              yield* emit(organisation, {
                resource_type: "creditors",
                action: "updated",
                links: { creditor: next.id },
                cause: { origin: "gocardless", cause: "creditor_verification_successful", description: "The creditor has been verified." }
              })
              done.push(next)
            }))
          return done
        })

      return Creditors.of({
        create: (o, i) => run(create(o, i)),
        get: (o, id) => Effect.map(creditors.get(o, id), (v) => v.resource),
        list: (o, p) => Effect.flatMap(decodeList(p), (params) => creditors.list(o, toListQuery(params, {}))),
        update: (o, id, i) => run(update(o, id, i)),
        createBankAccount: (o, i) => run(createBankAccount(o, i)),
        getBankAccount: (o, id) => Effect.map(accounts.get(o, id), (v) => v.resource),
        listBankAccounts: (o, p) =>
          Effect.flatMap(decodeAccountList(p), (params) =>
            accounts.list(o, toListQuery(params, {
              creditor: params.creditor === undefined ? undefined : eq(params.creditor),
              enabled: params.enabled === undefined ? undefined : eq(params.enabled)
            }))),
        disableBankAccount: (o, id) => run(disableBankAccount(o, id)),
        createVerificationDetail: (o, i) => run(createVerificationDetail(o, i)),
        listVerificationDetails: (o, p) =>
          Effect.flatMap(decodeDetailList(p), (params) => details.list(o, toListQuery(params, { creditor: eq(params.creditor) }))),
        completeReviews
      })
    })
  )
}
