import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  Creditors,
  CustomerBankAccountListParams,
  CustomerListParams,
  Customers,
  EventListParams,
  Events,
  ListParams,
  MandateListParams,
  Mandates,
  PaymentListParams,
  Payments,
  RefundListParams,
  VerificationDetailListParams
} from "@paykit/engine"
import { PaykitApi } from "./api.ts"
import { queryShapeOf } from "./query-params.ts"
import { getHandler, listHandler } from "./read-handlers.ts"
import { createHandler, updateHandler } from "./write-handlers.ts"

/**
 * Every endpoint's handler over the engine's services: reads, creations, updates and actions all
 * go through the service, which holds tenancy, decoding and the rules. Bodies are read raw.
 */

export const CreditorsHandlers = HttpApiBuilder.group(PaykitApi, "creditors", (h) =>
  Effect.map(Creditors, (s) =>
    h.handle("list", listHandler("creditors", queryShapeOf(ListParams), s.list))
      .handle("get", getHandler("creditors", s.get))
      .handleRaw("create", createHandler("creditors", s.create))
      .handleRaw("update", updateHandler("creditors", s.update))))

export const VerificationDetailsHandlers = HttpApiBuilder.group(PaykitApi, "verification_details", (h) =>
  Effect.map(Creditors, (s) =>
    h.handle("list", listHandler("verification_details", queryShapeOf(VerificationDetailListParams), s.listVerificationDetails))
      .handleRaw("create", createHandler("verification_details", s.createVerificationDetail))))

export const CustomersHandlers = HttpApiBuilder.group(PaykitApi, "customers", (h) =>
  Effect.map(Customers, (s) =>
    h.handle("list", listHandler("customers", queryShapeOf(CustomerListParams), s.list)).handle("get", getHandler("customers", s.get))))

export const CustomerBankAccountsHandlers = HttpApiBuilder.group(PaykitApi, "customer_bank_accounts", (h) =>
  Effect.map(Customers, (s) =>
    h.handle("list", listHandler("customer_bank_accounts", queryShapeOf(CustomerBankAccountListParams), s.listBankAccounts))
      .handle("get", getHandler("customer_bank_accounts", s.getBankAccount))))

export const MandatesHandlers = HttpApiBuilder.group(PaykitApi, "mandates", (h) =>
  Effect.map(Mandates, (s) =>
    h.handle("list", listHandler("mandates", queryShapeOf(MandateListParams), s.list)).handle("get", getHandler("mandates", s.get))))

export const PaymentsHandlers = HttpApiBuilder.group(PaykitApi, "payments", (h) =>
  Effect.map(Payments, (s) =>
    h.handle("list", listHandler("payments", queryShapeOf(PaymentListParams), s.list)).handle("get", getHandler("payments", s.get))))

export const RefundsHandlers = HttpApiBuilder.group(PaykitApi, "refunds", (h) =>
  Effect.map(Payments, (s) =>
    h.handle("list", listHandler("refunds", queryShapeOf(RefundListParams), s.listRefunds)).handle("get", getHandler("refunds", s.getRefund))))

export const EventsHandlers = HttpApiBuilder.group(PaykitApi, "events", (h) =>
  Effect.map(Events, (s) =>
    h.handle("list", listHandler("events", queryShapeOf(EventListParams), s.list)).handle("get", getHandler("events", s.get))))

export const AllHandlers = Layer.mergeAll(
  CreditorsHandlers,
  VerificationDetailsHandlers,
  CustomersHandlers,
  CustomerBankAccountsHandlers,
  MandatesHandlers,
  PaymentsHandlers,
  RefundsHandlers,
  EventsHandlers
)
