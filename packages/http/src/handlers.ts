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
  REQUEST_BODIES,
  SubscriptionListParams,
  Subscriptions,
  TaxRateListParams,
  TaxRates,
  VerificationDetailListParams
} from "@paykit/engine"
import { BANK_DETAILS_LOOKUPS, BankDetailsLookupCreate, lookupBankDetails, PAYER_THEMES } from "@paykit/validation"
import type { PaykitApi } from "./api.ts"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "./app-fees.ts"
import { getHandler, type Getter, type Lister, listHandler, type ListParamsSchema, plainListHandler } from "./read-handlers.ts"
import type { RouteTable } from "./routes.ts"
import {
  actionHandler,
  bodilessActionHandler,
  createdWithoutLocation,
  createFromDataHandler,
  createHandler,
  postHandler,
  updateHandler
} from "./write-handlers.ts"

/**
 * Every endpoint's handler over the engine's services. Bodies are unwrapped from their envelope
 * and decoded here with the engine's request Schema (`REQUEST_BODIES`), queries with its
 * list-parameter Schema, so the services get typed commands; tenancy and the rules that need
 * storage or the clock stay in the services. The services are taken once, when the table is
 * built, so a request carries none of them.
 */

/** The groups of the API definition. */
export type PaykitApiGroups = typeof PaykitApi extends HttpApi.HttpApi<string, infer Groups> ? Groups : never

/** The two reads of a resource: `GET /<key>` with its list parameters and `GET /<key>/:id`. */
const listAndGet = <S extends ListParamsSchema, A>(key: string, params: S, list: Lister<S["Type"], A>, get: Getter<A>) => ({
  list: listHandler(key, params, list),
  get: getHandler(key, get)
})

const CBA = "creditor_bank_accounts"
const OUTBOUND = "outbound_payments"
const BR = "billing_requests"
const BODIES = REQUEST_BODIES
/** Actions whose attributes are all optional: `null` is no attributes, as the services have always read it. */
const OPTIONAL = { nullIsEmpty: true } as const
const TOP_APP_FEE = { guard: appFeeOnlyForApps("subscriptions", APP_FEE_PATHS.top) } as const

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
      list: listHandler("creditors", ListParams, creditors.list),
      get: getHandler("creditors", creditors.get),
      create: createHandler("creditors", BODIES.creditors.create, creditors.create),
      update: updateHandler("creditors", BODIES.creditors.update, creditors.update)
    },
    [CBA]: {
      create: createHandler(CBA, BODIES.creditor_bank_accounts.create, creditors.createBankAccount),
      list: listHandler(CBA, CreditorBankAccountListParams, creditors.listBankAccounts),
      get: getHandler(CBA, creditors.getBankAccount),
      disable: bodilessActionHandler(CBA, creditors.disableBankAccount)
    },
    verification_details: {
      list: listHandler("verification_details", VerificationDetailListParams, creditors.listVerificationDetails),
      create: createHandler("verification_details", BODIES.verification_details.create, creditors.createVerificationDetail)
    },
    customers: listAndGet("customers", CustomerListParams, customers.list, customers.get),
    customer_bank_accounts: listAndGet("customer_bank_accounts", CustomerBankAccountListParams, customers.listBankAccounts, customers.getBankAccount),
    mandates: listAndGet("mandates", MandateListParams, mandates.list, mandates.get),
    payments: listAndGet("payments", PaymentListParams, payments.list, payments.get),
    refunds: listAndGet("refunds", RefundListParams, payments.listRefunds, payments.getRefund),
    events: listAndGet("events", EventListParams, events.list, events.get),
    [OUTBOUND]: {
      create: createHandler(OUTBOUND, BODIES.outbound_payments.create, outbound.create),
      withdrawal: createFromDataHandler(OUTBOUND, BODIES.outbound_payments.withdrawal, outbound.withdraw),
      list: listHandler(OUTBOUND, OutboundPaymentListParams, outbound.list),
      get: getHandler(OUTBOUND, outbound.get),
      update: updateHandler(OUTBOUND, BODIES.outbound_payments.update, outbound.update),
      approve: bodilessActionHandler(OUTBOUND, outbound.approve),
      cancel: actionHandler(OUTBOUND, BODIES.outbound_payments.cancel, outbound.cancel, OPTIONAL)
    },
    outbound_payment_imports: {
      create: createHandler("outbound_payment_imports", BODIES.outbound_payment_imports.create, imports.create),
      list: listHandler("outbound_payment_imports", OutboundPaymentImportListParams, imports.list),
      get: getHandler("outbound_payment_imports", imports.get)
    },
    outbound_payment_import_entries: {
      list: listHandler("outbound_payment_import_entries", OutboundPaymentImportEntryListParams, imports.listEntries)
    },
    subscriptions: {
      create: createHandler("subscriptions", BODIES.subscriptions.create, (o, command) => subscriptions.create(o, command), TOP_APP_FEE),
      list: listHandler("subscriptions", SubscriptionListParams, subscriptions.list),
      get: getHandler("subscriptions", subscriptions.get),
      update: updateHandler("subscriptions", BODIES.subscriptions.update, subscriptions.update, TOP_APP_FEE),
      pause: actionHandler("subscriptions", BODIES.subscriptions.pause, subscriptions.pause, OPTIONAL),
      resume: actionHandler("subscriptions", BODIES.subscriptions.resume, subscriptions.resume, OPTIONAL),
      cancel: actionHandler("subscriptions", BODIES.subscriptions.cancel, subscriptions.cancel, OPTIONAL)
    },
    [BR]: {
      create: createHandler(BR, BODIES.billing_requests.create, billingRequests.create, { guard: appFeeOnlyForApps(BR, APP_FEE_PATHS.billingRequest) }),
      list: listHandler(BR, BillingRequestListParams, billingRequests.list),
      get: getHandler(BR, billingRequests.get),
      collect_customer_details: actionHandler(BR, BODIES.billing_requests.collect_customer_details, billingRequests.collectCustomerDetails),
      collect_bank_account: actionHandler(BR, BODIES.billing_requests.collect_bank_account, billingRequests.collectBankAccount),
      confirm_payer_details: actionHandler(BR, BODIES.billing_requests.confirm_payer_details, billingRequests.confirmPayerDetails, OPTIONAL),
      fulfil: actionHandler(BR, BODIES.billing_requests.fulfil, billingRequests.fulfil, OPTIONAL),
      cancel: actionHandler(BR, BODIES.billing_requests.cancel, billingRequests.cancel, OPTIONAL),
      notify: actionHandler(BR, BODIES.billing_requests.notify, billingRequests.notify),
      fallback: bodilessActionHandler(BR, billingRequests.fallback),
      choose_currency: actionHandler(BR, BODIES.billing_requests.choose_currency, billingRequests.chooseCurrency),
      select_institution: actionHandler(BR, BODIES.billing_requests.select_institution, billingRequests.selectInstitution),
      institutions: plainListHandler("institutions", BillingRequestInstitutionParams, (o, p, { id }) => billingRequests.institutions(o, id, p))
    },
    bank_authorisations: {
      create: createHandler("bank_authorisations", BODIES.bank_authorisations.create, bankAuthorisations.create),
      get: getHandler("bank_authorisations", bankAuthorisations.get)
    },
    payer_authorisations: {
      create: createHandler("payer_authorisations", BODIES.payer_authorisations.create, payerAuthorisations.create),
      get: getHandler("payer_authorisations", payerAuthorisations.get),
      update: updateHandler("payer_authorisations", BODIES.payer_authorisations.update, payerAuthorisations.update),
      submit: bodilessActionHandler("payer_authorisations", payerAuthorisations.submit),
      confirm: bodilessActionHandler("payer_authorisations", payerAuthorisations.confirm)
    },
    institutions: {
      list: plainListHandler("institutions", InstitutionListParams, (_o, p) => institutions.list(p))
    },
    payouts: {
      list: listHandler("payouts", PayoutListParams, payouts.list),
      get: getHandler("payouts", payouts.get),
      update: updateHandler("payouts", BODIES.payouts.update, payouts.update)
    },
    // The lookup is a pure function of the bank details (@paykit/validation); nothing is stored.
    bank_details_lookups: {
      lookup: postHandler(BANK_DETAILS_LOOKUPS, BankDetailsLookupCreate, (_o, request) => Effect.succeed(lookupBankDetails(request)))
    },
    negative_balance_limits: {
      list: listHandler("negative_balance_limits", NegativeBalanceLimitListParams, negativeBalanceLimits.list)
    },
    payment_accounts: listAndGet("payment_accounts", PaymentAccountListParams, paymentAccounts.list, paymentAccounts.get),
    tax_rates: {
      list: listHandler("tax_rates", TaxRateListParams, (_o, p) => taxRates.list(p)),
      get: getHandler("tax_rates", (_o, id) => taxRates.get(id))
    },
    /**
     * `POST /branding/payer_themes`: the engine's `PayerThemes.upsert` stores the creditor's theme
     * (one per creditor: a second call updates it); the answer is the theme's id, as the real API's.
     */
    payer_themes: {
      create: createdWithoutLocation(
        PAYER_THEMES,
        BODIES.payer_themes.create,
        (organisation, command) => Effect.map(payerThemes.upsert(organisation, command), (theme) => ({ id: theme.id }))
      )
    }
  }
  return table
})
