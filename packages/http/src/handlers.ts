import { Effect } from "effect"
import type { HttpApi } from "effect/http-api"
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
import type { PaykitApi } from "./api.ts"
import { APP_FEE_PATHS, createAppFeeOnlyForApps, updateAppFeeOnlyForApps } from "./app-fees.ts"
import { type ParamsSchema, queryShapeOf } from "./query-params.ts"
import { getHandler, type Getter, type Lister, listHandler, plainListHandler } from "./read-handlers.ts"
import type { RouteTable } from "./routes.ts"
import { actionHandler, createdWithoutLocation, createFromDataHandler, createHandler, postHandler, updateHandler } from "./write-handlers.ts"

/**
 * Every endpoint's handler over the engine's services: reads, creations, updates and actions all
 * go through the service, which holds tenancy, decoding and the rules. Bodies are read raw and
 * unwrapped from their envelope; the engine decodes them. The services are taken once, when the
 * table is built, so a request carries none of them.
 */

/** The groups of the API definition. */
export type PaykitApiGroups = typeof PaykitApi extends HttpApi.HttpApi<string, infer Groups> ? Groups : never

/** An engine operation on one resource that takes no parameters, as an action. */
const noInput = <A, E>(f: (organisation: string, id: string) => Effect.Effect<A, E>) => (organisation: string, id: string, _input: unknown) =>
  f(organisation, id)

/** The two reads of a resource: `GET /<key>` with its list parameters and `GET /<key>/:id`. */
const listAndGet = <A>(key: string, params: ParamsSchema, list: Lister<A>, get: Getter<A>) => ({
  list: listHandler(key, queryShapeOf(params), list),
  get: getHandler(key, get)
})

const CBA = "creditor_bank_accounts"
const OUTBOUND = "outbound_payments"
const BR = "billing_requests"

export const makeApiHandlers = Effect.gen(function*() {
  const creditors = yield* Creditors
  const customers = yield* Customers
  const mandates = yield* Mandates
  const payments = yield* Payments
  const events = yield* Events
  const outbound = yield* OutboundPayments
  const imports = yield* OutboundPaymentImports
  const subscriptions = yield* Subscriptions
  const billingRequests = yield* BillingRequests
  const bankAuthorisations = yield* BankAuthorisations
  const payerAuthorisations = yield* PayerAuthorisations
  const institutions = yield* Institutions
  const payouts = yield* Payouts
  const negativeBalanceLimits = yield* NegativeBalanceLimits
  const paymentAccounts = yield* PaymentAccounts
  const taxRates = yield* TaxRates
  const payerThemes = yield* PayerThemes
  const table: RouteTable<PaykitApiGroups> = {
    creditors: {
      list: listHandler("creditors", queryShapeOf(ListParams), creditors.list),
      get: getHandler("creditors", creditors.get),
      create: createHandler("creditors", creditors.create),
      update: updateHandler("creditors", creditors.update)
    },
    [CBA]: {
      create: createHandler(CBA, creditors.createBankAccount),
      list: listHandler(CBA, queryShapeOf(CreditorBankAccountListParams), creditors.listBankAccounts),
      get: getHandler(CBA, creditors.getBankAccount),
      disable: actionHandler(CBA, noInput(creditors.disableBankAccount))
    },
    verification_details: {
      list: listHandler("verification_details", queryShapeOf(VerificationDetailListParams), creditors.listVerificationDetails),
      create: createHandler("verification_details", creditors.createVerificationDetail)
    },
    customers: listAndGet("customers", CustomerListParams, customers.list, customers.get),
    customer_bank_accounts: listAndGet("customer_bank_accounts", CustomerBankAccountListParams, customers.listBankAccounts, customers.getBankAccount),
    mandates: listAndGet("mandates", MandateListParams, mandates.list, mandates.get),
    payments: listAndGet("payments", PaymentListParams, payments.list, payments.get),
    refunds: listAndGet("refunds", RefundListParams, payments.listRefunds, payments.getRefund),
    events: listAndGet("events", EventListParams, events.list, events.get),
    [OUTBOUND]: {
      create: createHandler(OUTBOUND, outbound.create),
      withdrawal: createFromDataHandler(OUTBOUND, outbound.withdraw),
      list: listHandler(OUTBOUND, queryShapeOf(OutboundPaymentListParams), outbound.list),
      get: getHandler(OUTBOUND, outbound.get),
      update: updateHandler(OUTBOUND, outbound.update),
      approve: actionHandler(OUTBOUND, noInput(outbound.approve)),
      cancel: actionHandler(OUTBOUND, outbound.cancel)
    },
    outbound_payment_imports: {
      create: createHandler("outbound_payment_imports", imports.create),
      list: listHandler("outbound_payment_imports", queryShapeOf(OutboundPaymentImportListParams), imports.list),
      get: getHandler("outbound_payment_imports", imports.get)
    },
    outbound_payment_import_entries: {
      list: listHandler("outbound_payment_import_entries", queryShapeOf(OutboundPaymentImportEntryListParams), imports.listEntries)
    },
    subscriptions: {
      create: createHandler("subscriptions", createAppFeeOnlyForApps("subscriptions", APP_FEE_PATHS.top, subscriptions.create)),
      list: listHandler("subscriptions", queryShapeOf(SubscriptionListParams), subscriptions.list),
      get: getHandler("subscriptions", subscriptions.get),
      update: updateHandler("subscriptions", updateAppFeeOnlyForApps("subscriptions", APP_FEE_PATHS.top, subscriptions.update)),
      pause: actionHandler("subscriptions", subscriptions.pause),
      resume: actionHandler("subscriptions", subscriptions.resume),
      cancel: actionHandler("subscriptions", subscriptions.cancel)
    },
    [BR]: {
      create: createHandler(BR, createAppFeeOnlyForApps(BR, APP_FEE_PATHS.billingRequest, billingRequests.create)),
      list: listHandler(BR, queryShapeOf(BillingRequestListParams), billingRequests.list),
      get: getHandler(BR, billingRequests.get),
      collect_customer_details: actionHandler(BR, billingRequests.collectCustomerDetails),
      collect_bank_account: actionHandler(BR, billingRequests.collectBankAccount),
      confirm_payer_details: actionHandler(BR, billingRequests.confirmPayerDetails),
      fulfil: actionHandler(BR, billingRequests.fulfil),
      cancel: actionHandler(BR, billingRequests.cancel),
      notify: actionHandler(BR, billingRequests.notify),
      fallback: actionHandler(BR, billingRequests.fallback),
      choose_currency: actionHandler(BR, billingRequests.chooseCurrency),
      select_institution: actionHandler(BR, billingRequests.selectInstitution),
      institutions: plainListHandler("institutions", queryShapeOf(BillingRequestInstitutionParams), (o, p, { id }) => billingRequests.institutions(o, id, p))
    },
    bank_authorisations: {
      create: createHandler("bank_authorisations", bankAuthorisations.create),
      get: getHandler("bank_authorisations", bankAuthorisations.get)
    },
    payer_authorisations: {
      create: createHandler("payer_authorisations", payerAuthorisations.create),
      get: getHandler("payer_authorisations", payerAuthorisations.get),
      update: updateHandler("payer_authorisations", payerAuthorisations.update),
      submit: actionHandler("payer_authorisations", noInput(payerAuthorisations.submit)),
      confirm: actionHandler("payer_authorisations", noInput(payerAuthorisations.confirm))
    },
    institutions: {
      list: plainListHandler("institutions", queryShapeOf(InstitutionListParams), (_o, p) => institutions.list(p))
    },
    payouts: {
      list: listHandler("payouts", queryShapeOf(PayoutListParams), payouts.list),
      get: getHandler("payouts", payouts.get),
      update: updateHandler("payouts", payouts.update)
    },
    // The lookup is a pure function of the bank details (@paykit/validation); nothing is stored.
    bank_details_lookups: {
      lookup: postHandler(BANK_DETAILS_LOOKUPS, (_o, input) => Effect.map(Effect.fromResult(validateBankDetailsLookup(input)), lookupBankDetails))
    },
    negative_balance_limits: {
      list: listHandler("negative_balance_limits", queryShapeOf(NegativeBalanceLimitListParams), negativeBalanceLimits.list)
    },
    payment_accounts: listAndGet("payment_accounts", PaymentAccountListParams, paymentAccounts.list, paymentAccounts.get),
    tax_rates: {
      list: listHandler("tax_rates", queryShapeOf(TaxRateListParams), (_o, p) => taxRates.list(p)),
      get: getHandler("tax_rates", (_o, id) => taxRates.get(id))
    },
    /**
     * `POST /branding/payer_themes`: the engine's `PayerThemes.upsert` stores the creditor's theme
     * (one per creditor: a second call updates it); the answer is the theme's id, as the real API's.
     */
    payer_themes: {
      create: createdWithoutLocation(PAYER_THEMES, (organisation, input) => Effect.map(payerThemes.upsert(organisation, input), (theme) => ({ id: theme.id })))
    }
  }
  return table
})
