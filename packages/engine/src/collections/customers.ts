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
  validationFailed,
  IdOf
} from "@paykit/core"
import { Email, Name, optionalNullable, OptionalName, resolveBankDetails, type ResolvedBankAccount } from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "./repositories.ts"
import type { CustomerBankAccount } from "./domain/customer-bank-accounts.ts"
import type { Customer } from "./domain/customers.ts"
import { idFilter, listFields, toListQuery } from "../kernel/list-params.ts"
import { isEurozone } from "../creditors/scheme-identifiers.ts"
import { AddressRequestFields, addressLinesOf } from "../kernel/address-request.ts"
import { API_CAUSE, emit, insertNew, save, captureUnitOfWork } from "../kernel/support.ts"
import { MetadataUpdateRequest } from "../kernel/metadata-requests.ts"

const CUSTOMERS = "customers"
const BANK_ACCOUNTS = "customer_bank_accounts"

export const CustomerFields = {
  email: optionalNullable(Email),
  given_name: optionalNullable(OptionalName),
  family_name: optionalNullable(OptionalName),
  company_name: optionalNullable(OptionalName),
  ...AddressRequestFields,
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

export const CustomerListParams = Schema.Struct({ ...listFields("customer"), email: Schema.optionalKey(Schema.String) })

export const BankDetailsFields = {
  account_holder_name: Name,
  account_number: Schema.optionalKey(Schema.String),
  branch_code: Schema.optionalKey(Schema.String),
  bank_code: Schema.optionalKey(Schema.String),
  iban: Schema.optionalKey(Schema.String),
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
  links: Schema.Struct({ customer: IdOf("customer") })
})

export const CustomerBankAccountListParams = Schema.Struct({
  ...listFields("customer_bank_account"),
  customer: idFilter("customer"),
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

/**
 * The one check of a customer's bank details, used by every path that creates an account (the
 * API, billing requests' collect_bank_account, payer authorisations): @paykit/validation's bank
 * details rules (IBAN and BIC through ibantools, UK sort code and Vocalink modulus checks, ABA,
 * BSB, NZ, CA and the other local formats, `account_type` for USD only, no SEK IBAN since
 * Autogiro needs local details) and the currency of the account's country. Resolves the
 * country, currency, number ending (4 digits for NZD, else 2) and the debit schemes the account
 * can be collected on.
 */
export const checkCustomerBankDetails = (root: string, d: BankDetails): ResolvedCustomerBankAccount | ValidationFailed => {
  const resolution = resolveBankDetails(d, { rejectSekIban: true, checkCurrencyAndAccountType: true })
  if (!resolution.valid) return validationFailed(resolution.issues.map((i) => fieldError(root, i.path, i.message)))
  const { account } = resolution
  if (account.currency === null) return invalidField(root, ["country_code"], `has no supported currency (${account.country_code})`)
  return { ...account, currency: account.currency }
}

export interface ResolvedCustomerBankAccount extends ResolvedBankAccount {
  readonly currency: Currency
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
      const run = yield* captureUnitOfWork

      const decodeCreate = decodeInputEffect(CustomerCreateRequest, CUSTOMERS)
      const decodeUpdate = decodeInputEffect(CustomerUpdateRequest, CUSTOMERS)
      const decodeList = decodeInputEffect(CustomerListParams, CUSTOMERS)
      const decodeAccount = decodeInputEffect(CustomerBankAccountCreateRequest, BANK_ACCOUNTS)
      const decodeAccountUpdate = decodeInputEffect(MetadataUpdateRequest, BANK_ACCOUNTS)
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
            ...addressLinesOf(req),
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
          const resolved = checkCustomerBankDetails(BANK_ACCOUNTS, req)
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
