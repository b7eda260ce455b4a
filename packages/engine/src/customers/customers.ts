import { Context, Effect, Layer } from "effect"
import { bankOf } from "@paykit/validation"
import { decodeAtBoundary, type IdGenerator, type InvalidApiUsage, invalidField, InvalidState, newId, type NotFound, now, type OrganisationId, type StorageError, type StorageFailure, validationFailed, type ValidationFailed } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { NameVerifier, type NameVerification } from "../kernel/ports/name-verifier.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "./repositories.ts"
import {
  BANK_ACCOUNTS_ROOT,
  checkCustomerBankDetails,
  type CustomerBankAccount,
  CustomerBankAccountCreateRequest,
  CustomerBankAccountListParams,
  CustomerBankAccountUpdateRequest,
  erasedCustomerBankAccount
} from "./domain/customer-bank-accounts.ts"
import {
  type Customer,
  CustomerCreateRequest,
  CustomerListParams,
  customerNameErrors,
  CUSTOMERS_ROOT,
  CustomerUpdateRequest,
  erasedCustomer,
  isRemoved
} from "./domain/customers.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { listCustomers } from "./customer-list.ts"
import { isEurozone } from "../creditors/scheme-identifiers.ts"
import { addressLinesOf } from "../kernel/address-request.ts"
import { API_CAUSE, captureUnitOfWork, emit, insertNew, save } from "../kernel/support.ts"
import { AccountMandates, BlockScreen, PayerRecordEraser } from "./payer-ports.ts"
import { BankDetailsVault } from "./bank-details-vault.ts"

type Errors = ValidationFailed | NotFound | InvalidState


const decodeCreate = decodeAtBoundary(CustomerCreateRequest, CUSTOMERS_ROOT)
const decodeUpdate = decodeAtBoundary(CustomerUpdateRequest, CUSTOMERS_ROOT)
const decodeBankAccount = decodeAtBoundary(CustomerBankAccountCreateRequest, BANK_ACCOUNTS_ROOT)
const decodeBankAccountUpdate = decodeAtBoundary(CustomerBankAccountUpdateRequest, BANK_ACCOUNTS_ROOT)
const decodeList = decodeAtBoundary(CustomerListParams, CUSTOMERS_ROOT)
const decodeBankAccountList = decodeAtBoundary(CustomerBankAccountListParams, BANK_ACCOUNTS_ROOT)
export class Customers extends Context.Service<Customers, {
  readonly create: (organisation: OrganisationId, command: typeof CustomerCreateRequest.Encoded) => Effect.Effect<Customer, ValidationFailed | StorageFailure>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Customer, NotFound | InvalidState | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof CustomerListParams.Encoded) => Effect.Effect<Page<Customer>, ValidationFailed | InvalidApiUsage | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof CustomerUpdateRequest.Encoded) => Effect.Effect<Customer, Errors | StorageFailure>
  /**
   * `DELETE /customers/:id`: the customer's personal data erased for good and the customer no
   * longer listed, and read as `customer_data_removed`; refused (`customer_has_active_mandates`) while a mandate of theirs
   * can still be charged or cancelled. Their bank accounts are disabled.
   */
  readonly remove: (organisation: OrganisationId, id: string) => Effect.Effect<Customer, NotFound | InvalidState | StorageFailure>
  readonly createBankAccount: (organisation: OrganisationId, command: typeof CustomerBankAccountCreateRequest.Encoded) => Effect.Effect<CustomerBankAccount, Errors | StorageFailure>
  readonly getBankAccount: (organisation: OrganisationId, id: string) => Effect.Effect<CustomerBankAccount, NotFound | StorageError>
  readonly listBankAccounts: (organisation: OrganisationId, params: typeof CustomerBankAccountListParams.Encoded) => Effect.Effect<Page<CustomerBankAccount>, ValidationFailed | StorageError>
  readonly updateBankAccount: (organisation: OrganisationId, id: string, command: typeof CustomerBankAccountUpdateRequest.Encoded) => Effect.Effect<CustomerBankAccount, Errors | StorageFailure>
  /**
   * Disables the account for good and cancels its mandates (and their payments not yet
   * submitted), as the real API does; an account already disabled answers `disable_failed`.
   */
  readonly disableBankAccount: (organisation: OrganisationId, id: string) => Effect.Effect<CustomerBankAccount, NotFound | InvalidState | StorageFailure>
}>()("@paykit/engine/Customers") {
  static readonly layer: Layer.Layer<
    Customers,
    never,
    | CustomerRepository
    | CustomerBankAccountRepository
    | AccountMandates
    | PayerRecordEraser
    | NameVerifier
    | BlockScreen
    | BankDetailsVault
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Customers,
    Effect.gen(function*() {
      const customers = yield* CustomerRepository
      const accounts = yield* CustomerBankAccountRepository
      const verifier = yield* NameVerifier
      const run = yield* captureUnitOfWork
      const deps: CustomerDeps = {
        customers,
        accounts,
        mandates: yield* AccountMandates,
        eraser: yield* PayerRecordEraser,
        verifier,
        screen: yield* BlockScreen,
        vault: yield* BankDetailsVault,
      }
      return Customers.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(createCustomer(deps, o, c))),
        get: (o, id) => Effect.map(liveCustomer(deps, o, id), (v) => v.resource),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => listCustomers(deps, o, p)),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(updateCustomer(deps, o, id, c))),
        remove: (o, id) => run(removeCustomer(deps, o, id)),
        createBankAccount: (o, command) => Effect.flatMap(decodeBankAccount(command), (c) => run(createBankAccount(deps, o, c))),
        getBankAccount: (o, id) => Effect.map(accounts.get(o, id), (v) => v.resource),
        listBankAccounts: (o, plain) =>
          Effect.flatMap(decodeBankAccountList(plain), (params) =>
            accounts.list(o, toListQuery(params, {
              customer: params.customer === undefined ? undefined : eq(params.customer),
              enabled: params.enabled === undefined ? undefined : eq(params.enabled)
            }))),
        updateBankAccount: (o, id, command) => Effect.flatMap(decodeBankAccountUpdate(command), (c) => run(updateBankAccount(deps, o, id, c))),
        disableBankAccount: (o, id) => run(disableBankAccount(deps, o, id))
      })
    })
  )
}

interface CustomerDeps {
  readonly customers: CustomerRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly verifier: NameVerifier["Service"]
  /** The blocks' check of new payer details (`payer-ports.ts`). */
  readonly screen: BlockScreen["Service"]
  /** Where the account's full details are sealed (`bank-details-vault.ts`); the resource keeps the ending. */
  readonly vault: BankDetailsVault["Service"]
  /** The mandates on the payer's accounts (`payer-ports.ts`). */
  readonly mandates: AccountMandates["Service"]
  /** What the payer flows keep about the payer (`payer-ports.ts`). */
  readonly eraser: PayerRecordEraser["Service"]
}

/** A customer that has not been removed: a removed one's data is gone (`customer_data_removed`, the real API's reason). */
const liveCustomer = ({ customers }: CustomerDeps, organisation: string, id: string) =>
  Effect.flatMap(customers.get(organisation, id), (found) =>
    isRemoved(found.resource)
      ? Effect.fail(new InvalidState({ reason: "customer_data_removed", message: "The customer was removed and their data erased", links: { customer: id } }))
      : Effect.succeed(found))

/** The API's payer name verification result of the verifier's answer (none where none ran). */
const verificationResultOf = (verification: NameVerification | undefined): CustomerBankAccount["payer_name_verification_result"] => {
  switch (verification?.result) {
    case "full_match":
      return "full"
    case "partial_match":
      return "close"
    case "unable_to_match":
      return "cannot_perform_verification"
    default:
      return null
  }
}

const createCustomer = ({ customers, screen }: CustomerDeps, organisation: string, req: CustomerCreateRequest) =>
  Effect.gen(function*() {
    const nameErrors = customerNameErrors(CUSTOMERS_ROOT, req)
    if (nameErrors.length > 0) return yield* validationFailed(nameErrors)
    yield* screen.customer(organisation, CUSTOMERS_ROOT, req.email ?? null)
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

const updateCustomer = (deps: CustomerDeps, organisation: string, id: string, req: CustomerUpdateRequest) =>
  Effect.gen(function*() {
    const current = yield* liveCustomer(deps, organisation, id)
    if (current.resource.swedish_identity_number !== null && req.swedish_identity_number !== undefined &&
      req.swedish_identity_number !== current.resource.swedish_identity_number) {
      return yield* invalidField(CUSTOMERS_ROOT, ["swedish_identity_number"], "cannot be changed once set")
    }
    const next: Customer = { ...current.resource, ...req }
    const nameErrors = customerNameErrors(CUSTOMERS_ROOT, next)
    if (nameErrors.length > 0) return yield* validationFailed(nameErrors)
    // A new email meets the blocks as a new customer's does; an unchanged one passed them already.
    if (next.email !== current.resource.email) yield* deps.screen.customer(organisation, CUSTOMERS_ROOT, next.email)
    yield* save(deps.customers, organisation, current, next).pipe(Effect.orDie)
    return next
  })

const removeCustomer = (deps: CustomerDeps, organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* liveCustomer(deps, organisation, id)
    if (yield* deps.mandates.anyOpen(organisation, id)) {
      return yield* new InvalidState({
        reason: "customer_has_active_mandates",
        message: "The customer has mandates that are not cancelled or ended; cancel them before removing the customer",
        links: { customer: id }
      })
    }
    yield* erasePayerRecords(deps, organisation, id)
    const erased = erasedCustomer(current.resource)
    yield* save(deps.customers, organisation, current, { ...erased, removed_at: yield* now }).pipe(Effect.orDie)
    yield* emit(organisation, {
      resource_type: "customers",
      action: "removed",
      links: { customer: id },
      cause: API_CAUSE("customer_removed", "The customer was removed and their personal data erased at your request.")
    })
    return erased
  })

/**
 * What else names the removed customer: their bank accounts (disabled, as their mandates are
 * cancelled), the billing details their billing requests collected and the customer details
 * prefilled on those requests' flows, each erased.
 */
const erasePayerRecords = (deps: CustomerDeps, organisation: string, customer: string) =>
  Effect.gen(function*() {
    for (const account of yield* deps.accounts.scan(organisation, { customer: eq(customer) })) {
      const erased = yield* save(deps.accounts, organisation, account, erasedCustomerBankAccount(account.resource)).pipe(Effect.orDie)
      yield* deps.vault.erase(organisation, account.resource.id)
      if (account.resource.enabled) yield* disableAccount(deps, organisation, erased)
    }
    yield* deps.eraser.erase(organisation, customer)
  })

const createBankAccount = (deps: CustomerDeps, organisation: string, req: CustomerBankAccountCreateRequest) =>
  Effect.gen(function*() {
    const { accounts, verifier, screen } = deps
    const customer = yield* liveCustomer(deps, organisation, req.links.customer)
    const resolved = checkCustomerBankDetails(BANK_ACCOUNTS_ROOT, req)
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
      bank_name: bankOf(resolved).bank_name,
      country_code: resolved.country_code,
      currency: resolved.currency,
      enabled: true,
      payer_name_verification_result: verificationResultOf(verification),
      trusted_recipient: false,
      metadata: req.metadata ?? {},
      links: { customer: customer.resource.id }
    }
    yield* screen.bankAccount(organisation, BANK_ACCOUNTS_ROOT, account.id, resolved, account.bank_name)
    yield* insertNew(accounts, organisation, account)
    yield* deps.vault.keep(organisation, account.id, {
      account_holder_name: req.account_holder_name,
      country_code: resolved.country_code,
      currency: resolved.currency,
      iban: resolved.iban,
      bank_code: resolved.bank_code,
      branch_code: resolved.branch_code,
      account_number: resolved.account_number,
      account_number_suffix: resolved.account_number_suffix,
      account_type: account.account_type
    })
    return account
  })

const updateBankAccount = ({ accounts }: CustomerDeps, organisation: string, id: string, req: CustomerBankAccountUpdateRequest) =>
  Effect.gen(function*() {
    const current = yield* accounts.get(organisation, id)
    const next: CustomerBankAccount = { ...current.resource, metadata: req.metadata ?? current.resource.metadata }
    yield* save(accounts, organisation, current, next).pipe(Effect.orDie)
    return next
  })

/**
 * Disabling is not a machine's status change (an account has no status): its event is the only
 * record. The account's mandates go with it, as in the real API.
 */
const disableAccount = (deps: CustomerDeps, organisation: string, current: Versioned<CustomerBankAccount>) =>
  Effect.gen(function*() {
    const id = current.resource.id
    yield* deps.mandates.cancelOfAccount(organisation, id, API_CAUSE("bank_account_disabled", "The customer's bank account was disabled."))
    const next: CustomerBankAccount = { ...current.resource, enabled: false }
    yield* save(deps.accounts, organisation, current, next).pipe(Effect.orDie)
    yield* emit(organisation, {
      resource_type: "customer_bank_accounts",
      action: "disabled",
      links: { customer_bank_account: id, customer: next.links.customer },
      cause: API_CAUSE("bank_account_disabled")
    })
    return next
  })

const disableBankAccount = (deps: CustomerDeps, organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* deps.accounts.get(organisation, id)
    if (!current.resource.enabled) {
      return yield* new InvalidState({ reason: "disable_failed", message: "The customer bank account is already disabled", links: { customer_bank_account: id } })
    }
    return yield* disableAccount(deps, organisation, current)
  })

