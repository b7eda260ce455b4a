import { Context, Effect, Layer, Scope } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  BankAuthorisations,
  BillingRequestInstitutionParams,
  BillingRequestListParams,
  BillingRequests,
  CreditorBankAccountListParams,
  Creditors,
  CustomerBankAccountListParams,
  CustomerListParams,
  Customers,
  EventListParams,
  Events,
  InstitutionListParams,
  Institutions,
  ListParams,
  MandateListParams,
  Mandates,
  NegativeBalanceLimitListParams,
  NegativeBalanceLimits,
  OutboundPaymentImportEntryListParams,
  OutboundPaymentImportListParams,
  OutboundPaymentImports,
  OutboundPaymentListParams,
  OutboundPayments,
  PayerAuthorisations,
  PayerThemes,
  PaymentAccountListParams,
  PaymentAccounts,
  PaymentListParams,
  Payments,
  PayoutListParams,
  Payouts,
  RefundListParams,
  SubscriptionListParams,
  Subscriptions,
  TaxRateListParams,
  TaxRates,
  VerificationDetailListParams
} from "@paykit/engine"
import { BANK_DETAILS_LOOKUPS, lookupBankDetails, PAYER_THEMES, validateBankDetailsLookup } from "@paykit/validation"
import { PaykitApi } from "./api.ts"
import { APP_FEE_PATHS, createAppFeeOnlyForApps, updateAppFeeOnlyForApps } from "./app-fees.ts"
import { Gateway } from "./gateway.ts"
import { queryShapeOf } from "./query-params.ts"
import { getHandler, listHandler, plainListHandler } from "./read-handlers.ts"
import { actionHandler, createdWithoutLocation, createFromDataHandler, createHandler, postHandler, updateHandler } from "./write-handlers.ts"

/**
 * Every endpoint's handler over the engine's services: reads, creations, updates and actions all
 * go through the service, which holds tenancy, decoding and the rules. Bodies are read raw and
 * unwrapped from their envelope; the engine decodes them.
 */

/**
 * A group's layer built in a context holding only the gateway and the services named. HttpApi
 * keeps the context a group was built in and merges it into every request's context; the merge
 * copies it, so a group built beside the whole engine (every repository and service) would copy
 * all of them on each request. Handlers capture their services when built, so nothing else is
 * read from it; the request's own context (the server's) still carries everything else.
 */
const isolated = <A, E, R>(group: Layer.Layer<A, E, R>, ...keys: ReadonlyArray<Context.Key<unknown, unknown>>): Layer.Layer<A, E, R> =>
  Layer.effectContext(Effect.updateContext(Layer.build(group), (context: Context.Context<R | Scope.Scope>) => Context.pick(Gateway, Scope.Scope, ...keys)(context)))

/** An engine operation on one resource that takes no parameters, as an action. */
const noInput = <A, E>(f: (organisation: string, id: string) => Effect.Effect<A, E>) => (organisation: string, id: string, _input: unknown) =>
  f(organisation, id)

export const CreditorsHandlers = HttpApiBuilder.group(PaykitApi, "creditors", (h) =>
  Effect.map(Creditors, (s) =>
    h.handle("list", listHandler("creditors", queryShapeOf(ListParams), s.list))
      .handle("get", getHandler("creditors", s.get))
      .handleRaw("create", createHandler("creditors", s.create))
      .handleRaw("update", updateHandler("creditors", s.update))))

const CBA = "creditor_bank_accounts"
export const CreditorBankAccountsHandlers = HttpApiBuilder.group(PaykitApi, CBA, (h) =>
  Effect.map(Creditors, (s) =>
    h.handleRaw("create", createHandler(CBA, s.createBankAccount))
      .handle("list", listHandler(CBA, queryShapeOf(CreditorBankAccountListParams), s.listBankAccounts))
      .handle("get", getHandler(CBA, s.getBankAccount))
      .handleRaw("disable", actionHandler(CBA, noInput(s.disableBankAccount)))))

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

const OUTBOUND = "outbound_payments"
export const OutboundPaymentsHandlers = HttpApiBuilder.group(PaykitApi, OUTBOUND, (h) =>
  Effect.map(OutboundPayments, (s) =>
    h.handleRaw("create", createHandler(OUTBOUND, s.create))
      .handleRaw("withdrawal", createFromDataHandler(OUTBOUND, s.withdraw))
      .handle("list", listHandler(OUTBOUND, queryShapeOf(OutboundPaymentListParams), s.list))
      .handle("get", getHandler(OUTBOUND, s.get))
      .handleRaw("update", updateHandler(OUTBOUND, s.update))
      .handleRaw("approve", actionHandler(OUTBOUND, noInput(s.approve)))
      .handleRaw("cancel", actionHandler(OUTBOUND, s.cancel))))

export const OutboundPaymentImportsHandlers = HttpApiBuilder.group(PaykitApi, "outbound_payment_imports", (h) =>
  Effect.map(OutboundPaymentImports, (s) =>
    h.handleRaw("create", createHandler("outbound_payment_imports", s.create))
      .handle("list", listHandler("outbound_payment_imports", queryShapeOf(OutboundPaymentImportListParams), s.list))
      .handle("get", getHandler("outbound_payment_imports", s.get))))

export const OutboundPaymentImportEntriesHandlers = HttpApiBuilder.group(PaykitApi, "outbound_payment_import_entries", (h) =>
  Effect.map(OutboundPaymentImports, (s) =>
    h.handle("list", listHandler("outbound_payment_import_entries", queryShapeOf(OutboundPaymentImportEntryListParams), s.listEntries))))

export const SubscriptionsHandlers = HttpApiBuilder.group(PaykitApi, "subscriptions", (h) =>
  Effect.map(Subscriptions, (s) =>
    h.handleRaw("create", createHandler("subscriptions", createAppFeeOnlyForApps("subscriptions", APP_FEE_PATHS.top, s.create)))
      .handle("list", listHandler("subscriptions", queryShapeOf(SubscriptionListParams), s.list))
      .handle("get", getHandler("subscriptions", s.get))
      .handleRaw("update", updateHandler("subscriptions", updateAppFeeOnlyForApps("subscriptions", APP_FEE_PATHS.top, s.update)))
      .handleRaw("pause", actionHandler("subscriptions", s.pause))
      .handleRaw("resume", actionHandler("subscriptions", s.resume))
      .handleRaw("cancel", actionHandler("subscriptions", s.cancel))))

const BR = "billing_requests"
export const BillingRequestsHandlers = HttpApiBuilder.group(PaykitApi, BR, (h) =>
  Effect.map(BillingRequests, (s) =>
    h.handleRaw("create", createHandler(BR, createAppFeeOnlyForApps(BR, APP_FEE_PATHS.billingRequest, s.create)))
      .handle("list", listHandler(BR, queryShapeOf(BillingRequestListParams), s.list))
      .handle("get", getHandler(BR, s.get))
      .handleRaw("collect_customer_details", actionHandler(BR, s.collectCustomerDetails))
      .handleRaw("collect_bank_account", actionHandler(BR, s.collectBankAccount))
      .handleRaw("confirm_payer_details", actionHandler(BR, s.confirmPayerDetails))
      .handleRaw("fulfil", actionHandler(BR, s.fulfil))
      .handleRaw("cancel", actionHandler(BR, s.cancel))
      .handleRaw("notify", actionHandler(BR, s.notify))
      .handleRaw("fallback", actionHandler(BR, s.fallback))
      .handleRaw("choose_currency", actionHandler(BR, s.chooseCurrency))
      .handleRaw("select_institution", actionHandler(BR, s.selectInstitution))
      .handle("institutions", ({ params, query }) =>
        plainListHandler("institutions", queryShapeOf(BillingRequestInstitutionParams), (o, p) => s.institutions(o, params.id, p))({ query }))))

export const BankAuthorisationsHandlers = HttpApiBuilder.group(PaykitApi, "bank_authorisations", (h) =>
  Effect.map(BankAuthorisations, (s) =>
    h.handleRaw("create", createHandler("bank_authorisations", s.create)).handle("get", getHandler("bank_authorisations", s.get))))

export const PayerAuthorisationsHandlers = HttpApiBuilder.group(PaykitApi, "payer_authorisations", (h) =>
  Effect.map(PayerAuthorisations, (s) =>
    h.handleRaw("create", createHandler("payer_authorisations", s.create))
      .handle("get", getHandler("payer_authorisations", s.get))
      .handleRaw("update", updateHandler("payer_authorisations", s.update))
      .handleRaw("submit", actionHandler("payer_authorisations", noInput(s.submit)))
      .handleRaw("confirm", actionHandler("payer_authorisations", noInput(s.confirm)))))

export const InstitutionsHandlers = HttpApiBuilder.group(PaykitApi, "institutions", (h) =>
  Effect.map(Institutions, (s) => h.handle("list", plainListHandler("institutions", queryShapeOf(InstitutionListParams), (_o, p) => s.list(p)))))

export const PayoutsHandlers = HttpApiBuilder.group(PaykitApi, "payouts", (h) =>
  Effect.map(Payouts, (s) =>
    h.handle("list", listHandler("payouts", queryShapeOf(PayoutListParams), s.list))
      .handle("get", getHandler("payouts", s.get))
      .handleRaw("update", updateHandler("payouts", s.update))))

// The lookup is a pure function of the bank details (@paykit/validation); nothing is stored.
export const BankDetailsLookupsHandlers = HttpApiBuilder.group(PaykitApi, "bank_details_lookups", (h) =>
  Effect.succeed(h.handleRaw("lookup", postHandler(BANK_DETAILS_LOOKUPS, (_o, input) =>
    Effect.map(Effect.fromResult(validateBankDetailsLookup(input)), lookupBankDetails)))))

export const NegativeBalanceLimitsHandlers = HttpApiBuilder.group(PaykitApi, "negative_balance_limits", (h) =>
  Effect.map(NegativeBalanceLimits, (s) =>
    h.handle("list", listHandler("negative_balance_limits", queryShapeOf(NegativeBalanceLimitListParams), s.list))))

export const PaymentAccountsHandlers = HttpApiBuilder.group(PaykitApi, "payment_accounts", (h) =>
  Effect.map(PaymentAccounts, (s) =>
    h.handle("list", listHandler("payment_accounts", queryShapeOf(PaymentAccountListParams), s.list))
      .handle("get", getHandler("payment_accounts", s.get))))

export const TaxRatesHandlers = HttpApiBuilder.group(PaykitApi, "tax_rates", (h) =>
  Effect.map(TaxRates, (s) =>
    h.handle("list", listHandler("tax_rates", queryShapeOf(TaxRateListParams), (_o, p) => s.list(p)))
      .handle("get", getHandler("tax_rates", (_o, id) => s.get(id)))))

/**
 * `POST /branding/payer_themes`: the engine's `PayerThemes.upsert` stores the creditor's theme
 * (one per creditor: a second call updates it); the answer is the theme's id, as the real API's.
 */
export const PayerThemesHandlers = HttpApiBuilder.group(PaykitApi, "payer_themes", (h) =>
  Effect.map(PayerThemes, (s) =>
    h.handleRaw("create", createdWithoutLocation(PAYER_THEMES, (organisation, input) =>
      Effect.map(s.upsert(organisation, input), (theme) => ({ id: theme.id }))))))

export const AllHandlers = Layer.mergeAll(
  isolated(CreditorsHandlers, Creditors),
  isolated(CreditorBankAccountsHandlers, Creditors),
  isolated(VerificationDetailsHandlers, Creditors),
  isolated(CustomersHandlers, Customers),
  isolated(CustomerBankAccountsHandlers, Customers),
  isolated(MandatesHandlers, Mandates),
  isolated(PaymentsHandlers, Payments),
  isolated(RefundsHandlers, Payments),
  isolated(EventsHandlers, Events),
  isolated(OutboundPaymentsHandlers, OutboundPayments),
  isolated(OutboundPaymentImportsHandlers, OutboundPaymentImports),
  isolated(OutboundPaymentImportEntriesHandlers, OutboundPaymentImports),
  isolated(SubscriptionsHandlers, Subscriptions),
  isolated(BillingRequestsHandlers, BillingRequests),
  isolated(BankAuthorisationsHandlers, BankAuthorisations),
  isolated(PayerAuthorisationsHandlers, PayerAuthorisations),
  isolated(InstitutionsHandlers, Institutions),
  isolated(PayoutsHandlers, Payouts),
  isolated(BankDetailsLookupsHandlers),
  isolated(NegativeBalanceLimitsHandlers, NegativeBalanceLimits),
  isolated(PaymentAccountsHandlers, PaymentAccounts),
  isolated(TaxRatesHandlers, TaxRates),
  isolated(PayerThemesHandlers, PayerThemes)
)
