import { Context, Effect, Layer, Schema } from "effect"
import {
  CountryCode,
  Currency,
  type IdGenerator,
  Metadata,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  fieldError,
  invalidField,
  newId,
  now,
  validationFailed
} from "@paykit/core"
import { NonBlankString, optionalNullable } from "@paykit/validation"
import { EventLog } from "../ports/event-log.ts"
import { Transactor } from "../ports/repository.ts"
import { eq, type Page } from "../ports/list-query.ts"
import { NameVerifier } from "../ports/name-verifier.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "../repositories.ts"
import type { CustomerBankAccount } from "../resources/customer-bank-accounts.ts"
import type { Customer } from "../resources/customers.ts"
import { ListParams, PageFields, toListQuery } from "./list-params.ts"
import { currencyOfCountry, isEurozone } from "./scheme-identifiers.ts"
import { API_CAUSE, emit, insertNew, save } from "./support.ts"

const CUSTOMERS = "customers"
const BANK_ACCOUNTS = "customer_bank_accounts"

export const CustomerFields = {
  email: optionalNullable(Schema.String.check(Schema.makeFilter((s: string) => /^[^@\s]+@[^@\s]+$/.test(s), { message: "must be an email address" }))),
  given_name: optionalNullable(Schema.String),
  family_name: optionalNullable(Schema.String),
  company_name: optionalNullable(Schema.String),
  address_line1: optionalNullable(Schema.String),
  address_line2: optionalNullable(Schema.String),
  address_line3: optionalNullable(Schema.String),
  city: optionalNullable(Schema.String),
  region: optionalNullable(Schema.String),
  postal_code: optionalNullable(Schema.String),
  country_code: optionalNullable(CountryCode),
  language: optionalNullable(Schema.String),
  phone_number: optionalNullable(Schema.String),
  swedish_identity_number: optionalNullable(Schema.String),
  danish_identity_number: optionalNullable(Schema.String),
  metadata: Schema.optionalKey(Metadata)
} as const

export const CustomerCreateRequest = Schema.Struct(CustomerFields)
export type CustomerCreateRequest = typeof CustomerCreateRequest.Type
export const CustomerUpdateRequest = Schema.Struct(CustomerFields)

export const CustomerListParams = Schema.Struct({ ...ListParams.fields, email: Schema.optionalKey(Schema.String) })

const SortCode = Schema.String.check(Schema.makeFilter((s: string) => /^\d{6}$/.test(s.replace(/-/g, "")), { message: "must be a 6-digit sort code" }))
const AccountNumber = Schema.String.check(Schema.makeFilter((s: string) => /^\d{4,17}$/.test(s), { message: "must be 4 to 17 digits" }))
const Iban = Schema.String.check(
  Schema.makeFilter((s: string) => /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(s.replace(/\s/g, "")), { message: "must be an IBAN" })
)

export const BankDetailsFields = {
  account_holder_name: NonBlankString,
  account_number: Schema.optionalKey(AccountNumber),
  branch_code: Schema.optionalKey(SortCode),
  bank_code: Schema.optionalKey(Schema.String),
  iban: Schema.optionalKey(Iban),
  country_code: Schema.optionalKey(CountryCode),
  currency: Schema.optionalKey(Currency),
  account_type: optionalNullable(Schema.Literals(["savings", "checking"])),
  account_number_suffix: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata)
} as const
export const BankDetails = Schema.Struct(BankDetailsFields)
export type BankDetails = typeof BankDetails.Type

export const CustomerBankAccountCreateRequest = Schema.Struct({
  ...BankDetailsFields,
  links: Schema.Struct({ customer: Schema.String })
})

export const CustomerBankAccountListParams = Schema.Struct({
  ...PageFields,
  created_at: ListParams.fields.created_at,
  customer: Schema.optionalKey(Schema.String),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})

/** Cross-field rule of customers: a person's two names, or a company name. */
export const customerNameErrors = (
  root: string,
  c: { readonly given_name?: string | null; readonly family_name?: string | null; readonly company_name?: string | null }
) =>
  (c.company_name ?? "") === "" && ((c.given_name ?? "") === "" || (c.family_name ?? "") === "")
    ? [fieldError(root, ["given_name"], "is required unless company_name is given"), fieldError(root, ["family_name"], "is required unless company_name is given")]
    : []

/** What a bank account's details resolve to, once its country and currency are known. */
export interface ResolvedBankDetails {
  readonly country_code: string
  readonly currency: Currency
  readonly account_number_ending: string
}

/**
 * The local-details rules: an IBAN (its country is the account's), or a UK account number with
 * its sort code, or elsewhere an account number with the country given. The IBAN check digits
 * are checked by ISO 13616's mod-97.
 */
export const resolveBankDetails = (root: string, d: BankDetails): ResolvedBankDetails | ValidationFailed => {
  if (d.iban !== undefined) {
    const iban = d.iban.replace(/\s/g, "")
    const rearranged = iban.slice(4) + iban.slice(0, 4)
    let remainder = 0
    for (const ch of rearranged) {
      const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)
      for (const digit of v) remainder = (remainder * 10 + Number(digit)) % 97
    }
    if (remainder !== 1) return invalidField(root, ["iban"], "is not a valid IBAN: its check digits do not match")
    const country = iban.slice(0, 2)
    const currency = d.currency ?? currencyOfCountry(country)
    if (currency === undefined) return invalidField(root, ["currency"], "is required for this country")
    return { country_code: country, currency, account_number_ending: iban.slice(-2) }
  }
  const country = d.country_code
  if (country === undefined) return invalidField(root, ["country_code"], "is required with local bank details")
  if (d.account_number === undefined) return invalidField(root, ["account_number"], "is required unless an iban is given")
  if (country === "GB" && d.branch_code === undefined) return invalidField(root, ["branch_code"], "is required for GB accounts")
  if (isEurozone(country)) return invalidField(root, ["iban"], "is required for accounts in the eurozone")
  const currency = d.currency ?? currencyOfCountry(country)
  if (currency === undefined) return invalidField(root, ["currency"], "is required for this country")
  const ending = currency === "NZD" ? d.account_number.slice(-4) : d.account_number.slice(-2)
  return { country_code: country, currency, account_number_ending: ending }
}

type Errors = ValidationFailed | NotFound

export class Customers extends Context.Service<Customers, {
  readonly create: (organisation: string, input: unknown) => Effect.Effect<Customer, ValidationFailed>
  readonly get: (organisation: string, id: string) => Effect.Effect<Customer, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<Customer>, ValidationFailed>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<Customer, Errors>
  readonly createBankAccount: (organisation: string, input: unknown) => Effect.Effect<CustomerBankAccount, Errors>
  readonly getBankAccount: (organisation: string, id: string) => Effect.Effect<CustomerBankAccount, NotFound>
  readonly listBankAccounts: (organisation: string, params: unknown) => Effect.Effect<Page<CustomerBankAccount>, ValidationFailed>
  readonly updateBankAccount: (organisation: string, id: string, input: unknown) => Effect.Effect<CustomerBankAccount, Errors>
  readonly disableBankAccount: (organisation: string, id: string) => Effect.Effect<CustomerBankAccount, NotFound>
}>()("@paykit/engine/Customers") {
  static readonly layer: Layer.Layer<
    Customers,
    never,
    CustomerRepository | CustomerBankAccountRepository | NameVerifier | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    Customers,
    Effect.gen(function*() {
      const customers = yield* CustomerRepository
      const accounts = yield* CustomerBankAccountRepository
      const verifier = yield* NameVerifier
      const services = yield* Effect.context<IdGenerator | EventLog>()
      const transactor = yield* Transactor
      // Each operation is one unit of work: its writes and events commit together or not at all.
      const run = <A, E>(effect: Effect.Effect<A, E, IdGenerator | EventLog>) =>
        transactor.transaction(Effect.provideContext(effect, services))

      const decodeCreate = decodeInputEffect(CustomerCreateRequest, CUSTOMERS)
      const decodeUpdate = decodeInputEffect(CustomerUpdateRequest, CUSTOMERS)
      const decodeList = decodeInputEffect(CustomerListParams, CUSTOMERS)
      const decodeAccount = decodeInputEffect(CustomerBankAccountCreateRequest, BANK_ACCOUNTS)
      const decodeAccountUpdate = decodeInputEffect(Schema.Struct({ metadata: Schema.optionalKey(Metadata) }), BANK_ACCOUNTS)
      const decodeAccountList = decodeInputEffect(CustomerBankAccountListParams, BANK_ACCOUNTS)

      const create = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeCreate(input)
          const nameErrors = customerNameErrors(CUSTOMERS, req)
          if (nameErrors.length > 0) return yield* validationFailed(nameErrors)
          const customer: Customer = {
            id: yield* newId("customer"),
            created_at: yield* now,
            email: req.email ?? null,
            given_name: req.given_name ?? null,
            family_name: req.family_name ?? null,
            company_name: req.company_name ?? null,
            address_line1: req.address_line1 ?? null,
            address_line2: req.address_line2 ?? null,
            address_line3: req.address_line3 ?? null,
            city: req.city ?? null,
            region: req.region ?? null,
            postal_code: req.postal_code ?? null,
            country_code: req.country_code ?? null,
            language: req.language ?? "en",
            phone_number: req.phone_number ?? null,
            swedish_identity_number: req.swedish_identity_number ?? null,
            danish_identity_number: req.danish_identity_number ?? null,
            metadata: req.metadata ?? {}
          }
          yield* insertNew(customers, organisation, customer)
          return customer
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeUpdate(input)
          const current = yield* customers.get(organisation, id)
          if (current.resource.swedish_identity_number !== null && req.swedish_identity_number !== undefined &&
            req.swedish_identity_number !== current.resource.swedish_identity_number) {
            return yield* invalidField(CUSTOMERS, ["swedish_identity_number"], "cannot be changed once set")
          }
          const next: Customer = { ...current.resource, ...req }
          const nameErrors = customerNameErrors(CUSTOMERS, next)
          if (nameErrors.length > 0) return yield* validationFailed(nameErrors)
          yield* save(customers, organisation, current, next).pipe(Effect.orDie)
          return next
        })

      const createBankAccount = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeAccount(input)
          const customer = yield* customers.get(organisation, req.links.customer)
          const resolved = resolveBankDetails(BANK_ACCOUNTS, req)
          if ("_tag" in resolved) return yield* resolved
          // Payer name verification runs for UK and eurozone accounts (spec: bank details lookups).
          const verifiable = resolved.country_code === "GB" || isEurozone(resolved.country_code)
          const verification = verifiable
            ? yield* verifier.verify({
              account_holder_name: req.account_holder_name,
              account_number_ending: resolved.account_number_ending,
              country_code: resolved.country_code
            })
            : undefined
          const account: CustomerBankAccount = {
            id: yield* newId("customer_bank_account"),
            created_at: yield* now,
            account_holder_name: req.account_holder_name,
            account_number_ending: resolved.account_number_ending,
            account_type: req.account_type ?? null,
            bank_account_token: null,
            bank_name: null,
            country_code: resolved.country_code,
            currency: resolved.currency,
            enabled: true,
            payer_name_verification_result: verification === undefined
              ? null
              : verification.result === "full_match"
              ? "full"
              : verification.result === "partial_match"
              ? "close"
              : verification.result === "unable_to_match"
              ? "cannot_perform_verification"
              : null,
            trusted_recipient: false,
            metadata: req.metadata ?? {},
            links: { customer: customer.resource.id }
          }
          yield* insertNew(accounts, organisation, account)
          return account
        })

      const updateBankAccount = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeAccountUpdate(input)
          const current = yield* accounts.get(organisation, id)
          const next: CustomerBankAccount = { ...current.resource, metadata: req.metadata ?? current.resource.metadata }
          yield* save(accounts, organisation, current, next).pipe(Effect.orDie)
          return next
        })

      const disableBankAccount = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* accounts.get(organisation, id)
          if (!current.resource.enabled) return current.resource
          const next: CustomerBankAccount = { ...current.resource, enabled: false }
          yield* save(accounts, organisation, current, next).pipe(Effect.orDie)
          yield* emit(organisation, {
            resource_type: "customer_bank_accounts",
            action: "disabled",
            links: { customer_bank_account: id, customer: next.links.customer },
            cause: API_CAUSE("bank_account_disabled")
          })
          return next
        })

      return Customers.of({
        create: (o, i) => run(create(o, i)),
        get: (o, id) => Effect.map(customers.get(o, id), (v) => v.resource),
        list: (o, p) =>
          Effect.flatMap(decodeList(p), (params) =>
            customers.list(o, toListQuery(params, { email: params.email === undefined ? undefined : eq(params.email) }))),
        update: (o, id, i) => run(update(o, id, i)),
        createBankAccount: (o, i) => run(createBankAccount(o, i)),
        getBankAccount: (o, id) => Effect.map(accounts.get(o, id), (v) => v.resource),
        listBankAccounts: (o, p) =>
          Effect.flatMap(decodeAccountList(p), (params) =>
            accounts.list(o, toListQuery(params, {
              customer: params.customer === undefined ? undefined : eq(params.customer),
              enabled: params.enabled === undefined ? undefined : eq(params.enabled)
            }))),
        updateBankAccount: (o, id, i) => run(updateBankAccount(o, id, i)),
        disableBankAccount: (o, id) => run(disableBankAccount(o, id))
      })
    })
  )
}
