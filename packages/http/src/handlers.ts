import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  CreditorRepository,
  Creditors,
  CustomerBankAccountRepository,
  CustomerRepository,
  creditors,
  customerBankAccounts,
  customers,
  EventLog,
  events,
  MANDATE_STATUSES,
  MandateRepository,
  mandates,
  PAYMENT_STATUSES,
  PaymentRepository,
  payments,
  REFUND_STATUSES,
  RefundRepository,
  refunds,
  type Repository
} from "@paykit/engine"
import { PaykitApi } from "./api.ts"
import type { ReadSource } from "./read-handlers.ts"
import { readHandlers } from "./read-handlers.ts"
import { createHandler, updateHandler } from "./write-handlers.ts"

/** A repository read as a `ReadSource`: the stored version is not part of the wire shape. */
const fromRepository = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  repository: Repository<A, K>
): ReadSource<A, K> => ({
  get: (organisation, id) => Effect.map(repository.get(organisation, id), (v) => v.resource),
  list: repository.list
})

// Creations and updates are read raw: the engine service decodes the body with its own Schema.
export const CreditorsHandlers = HttpApiBuilder.group(PaykitApi, "creditors", (h) =>
  Effect.gen(function*() {
    const repo = yield* CreditorRepository
    const service = yield* Creditors
    return h.handleAll(readHandlers(creditors, fromRepository(repo)))
      .handleRaw("create", createHandler("creditors", service.create))
      .handleRaw("update", updateHandler("creditors", service.update))
  }))

export const CustomersHandlers = HttpApiBuilder.group(PaykitApi, "customers", (h) =>
  Effect.map(CustomerRepository, (repo) => h.handleAll(readHandlers(customers, fromRepository(repo)))))

export const CustomerBankAccountsHandlers = HttpApiBuilder.group(PaykitApi, "customer_bank_accounts", (h) =>
  Effect.map(CustomerBankAccountRepository, (repo) => h.handleAll(readHandlers(customerBankAccounts, fromRepository(repo)))))

export const MandatesHandlers = HttpApiBuilder.group(PaykitApi, "mandates", (h) =>
  Effect.map(MandateRepository, (repo) =>
    h.handleAll(readHandlers(mandates, fromRepository(repo), { enums: { status: MANDATE_STATUSES } }))))

export const PaymentsHandlers = HttpApiBuilder.group(PaykitApi, "payments", (h) =>
  Effect.map(PaymentRepository, (repo) =>
    h.handleAll(readHandlers(payments, fromRepository(repo), { enums: { status: PAYMENT_STATUSES } }))))

export const RefundsHandlers = HttpApiBuilder.group(PaykitApi, "refunds", (h) =>
  Effect.map(RefundRepository, (repo) =>
    h.handleAll(readHandlers(refunds, fromRepository(repo), { enums: { status: REFUND_STATUSES } }))))

export const EventsHandlers = HttpApiBuilder.group(PaykitApi, "events", (h) =>
  Effect.map(EventLog, (log) => h.handleAll(readHandlers(events, { get: log.get, list: log.list }))))

export const AllHandlers = Layer.mergeAll(
  CreditorsHandlers,
  CustomersHandlers,
  CustomerBankAccountsHandlers,
  MandatesHandlers,
  PaymentsHandlers,
  RefundsHandlers,
  EventsHandlers
)
