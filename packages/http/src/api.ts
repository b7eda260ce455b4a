import { API_VERSION } from "@paykit/core"
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  BankAuthorisations,
  bankAuthorisations,
  BillingRequestInstitutionParams,
  BillingRequestListParams,
  BillingRequests,
  billingRequests,
  Creditor,
  CreditorBankAccount,
  CreditorBankAccountListParams,
  Creditors,
  creditors,
  CustomerBankAccountListParams,
  customerBankAccounts,
  CustomerListParams,
  Customers,
  customers,
  EventListParams,
  Events,
  events,
  Institution,
  InstitutionListParams,
  Institutions,
  ListParams,
  MandateListParams,
  Mandates,
  mandates,
  NegativeBalanceLimitListParams,
  NegativeBalanceLimits,
  negativeBalanceLimits,
  OutboundPaymentImportEntryListParams,
  outboundPaymentImportEntries,
  OutboundPaymentImportListParams,
  OutboundPaymentImports,
  outboundPaymentImports,
  OutboundPaymentListParams,
  OutboundPayments,
  outboundPayments,
  PayerAuthorisations,
  payerAuthorisations,
  PayerThemes,
  PaymentAccountListParams,
  PaymentAccounts,
  paymentAccounts,
  PaymentListParams,
  Payments,
  payments,
  PayoutListParams,
  Payouts,
  payouts,
  RefundListParams,
  refunds,
  REQUEST_BODIES,
  SubscriptionListParams,
  Subscriptions,
  subscriptions,
  TaxRateListParams,
  TaxRates,
  VerificationDetailListParams,
  verificationDetails,
  CreatedWebhookEndpoint,
  WEBHOOK_ENDPOINTS,
  WebhookEndpoint,
  WebhookEndpointListParams,
  WebhookEndpoints,
  WebhookListParams,
  Webhooks,
  webhooks,
  Blocks,
  InstalmentSchedules,
  MandateImports,
  BankAccountHolderVerifications,
  BillingRequestFlows,
  BillingRequestsWithActions,
  BillingRequestTemplates,
  CustomerNotifications,
  MandatePdfs,
  RedirectFlows
} from "@paykit/engine"
import { TaxRate } from "@paykit/money"
import { BANK_DETAILS_LOOKUPS, BankDetailsLookupCreate, BankDetailsLookupFields, lookupBankDetails, PAYER_THEMES } from "@paykit/validation"
import {
  actionEndpoint,
  annotateEach,
  bodilessActionEndpoint,
  createEndpoint,
  declare,
  type EndpointDeclaration,
  getEndpoint,
  IdParams,
  Idempotent,
  listEndpoint,
  RateLimit,
  updateEndpoint
} from "./endpoints.ts"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "./app-fees.ts"
import { Gateway } from "./gateway.ts"
import { queryDeclaration, queryShapeOf } from "./query-params.ts"
import { OUTBOUND_PAYMENT_OTHER, OUTBOUND_PAYMENT_WRITES } from "./rate-limit.ts"
import { type Getter, type Lister, type ListParamsSchema, plainListHandler } from "./read-handlers.ts"
import { createdWithoutLocation, createHandler, postHandler } from "./write-handlers.ts"
import { CORE_ROUTES } from "./routes-core.ts"
import { single } from "./wire.ts"
import { OPS_ROUTES } from "./routes-ops.ts"
import { FLOW_ROUTES } from "./routes-flows.ts"
import { MONEY_ROUTES, moneyServices } from "./routes-money.ts"
import { MANDATE_PDF_ROUTES } from "./routes-mandate-pdfs.ts"
import { PageSigningSecret } from "./pages/csrf.ts"
import { mandatePdfLinksFrom } from "./pages/mandate-pdf-links.ts"
import { DOCUMENT_ROUTES, documentServices } from "./routes-documents.ts"

/**
 * The route table of the API: one declaration per endpoint, in the order the OpenAPI document
 * lists them, each with its resource Schema, its request Schema (`REQUEST_BODIES`, which the
 * handler decodes the body with at the edge) or list-parameter Schema, and the engine operation
 * its handler calls. Routing, the gateway's annotations, the OpenAPI document and the docs page
 * all come from here. The services are taken once, when the routes are bound, so a request
 * carries none of them.
 */

/** The engine's services the API's handlers call. */
export const engineServices = Effect.gen(function*() {
  return {
    creditors: yield* Creditors,
    customers: yield* Customers,
    mandates: yield* Mandates,
    payments: yield* Payments,
    events: yield* Events,
    outbound: yield* OutboundPayments,
    imports: yield* OutboundPaymentImports,
    subscriptions: yield* Subscriptions,
    billingRequests: yield* BillingRequests,
    bankAuthorisations: yield* BankAuthorisations,
    payerAuthorisations: yield* PayerAuthorisations,
    institutions: yield* Institutions,
    payouts: yield* Payouts,
    negativeBalanceLimits: yield* NegativeBalanceLimits,
    paymentAccounts: yield* PaymentAccounts,
    taxRates: yield* TaxRates,
    payerThemes: yield* PayerThemes,
    webhookEndpoints: yield* WebhookEndpoints,
    webhooks: yield* Webhooks,
    instalmentSchedules: yield* InstalmentSchedules,
    blocks: yield* Blocks,
    mandateImports: yield* MandateImports,
    billingRequestFlows: yield* BillingRequestFlows,
    billingRequestTemplates: yield* BillingRequestTemplates,
    billingRequestsWithActions: yield* BillingRequestsWithActions,
    redirectFlows: yield* RedirectFlows,
    bankAccountHolderVerifications: yield* BankAccountHolderVerifications,
    customerNotifications: yield* CustomerNotifications,
    mandatePdfs: yield* MandatePdfs,
    mandatePdfLinks: mandatePdfLinksFrom(yield* PageSigningSecret),
    money: yield* moneyServices,
    documents: yield* documentServices
  }
})
export type EngineServices = Effect.Success<typeof engineServices>
/** One route of the API's table, bound to the engine's services (every `routes-*.ts` declares these). */
export type Declaration = EndpointDeclaration<EngineServices>

/** An answer computed by @paykit/validation with no exported Schema (the bank details lookup): declared as an object. */
export const EngineDecodedBody = Schema.Record(Schema.String, Schema.Unknown)

const BODIES = REQUEST_BODIES
/** Actions whose attributes are all optional: `null` is no attributes, as the services have always read it. */
const OPTIONAL = { nullIsEmpty: true } as const
const TOP_APP_FEE = { guard: appFeeOnlyForApps("subscriptions", APP_FEE_PATHS.top) } as const
const InstitutionsAnswer = Schema.Struct({ institutions: Schema.Array(Institution) })

/** The two reads of a resource: `GET /<key>` with its list parameters and `GET /<key>/:id`. */
const listAndGet = <P extends ListParamsSchema, A>(
  key: string,
  resource: Schema.Top,
  params: P,
  list: (s: EngineServices) => Lister<P["Type"], A>,
  get: (s: EngineServices) => Getter<A>
): ReadonlyArray<Declaration> => [listEndpoint(key, resource, params, list), getEndpoint(key, resource, get)]

const CBA = "creditor_bank_accounts"
const creditorRoutes: ReadonlyArray<Declaration> = [
  listEndpoint("creditors", creditors.schema, ListParams, (s) => s.creditors.list),
  getEndpoint("creditors", creditors.schema, (s) => s.creditors.get),
  createEndpoint("creditors", Creditor, BODIES.creditors.create, (s) => s.creditors.create),
  updateEndpoint("creditors", Creditor, BODIES.creditors.update, (s) => s.creditors.update),
  createEndpoint(CBA, CreditorBankAccount, BODIES.creditor_bank_accounts.create, (s) => s.creditors.createBankAccount),
  listEndpoint(CBA, CreditorBankAccount, CreditorBankAccountListParams, (s) => s.creditors.listBankAccounts),
  getEndpoint(CBA, CreditorBankAccount, (s) => s.creditors.getBankAccount),
  bodilessActionEndpoint("disable", CBA, CreditorBankAccount, (s) => s.creditors.disableBankAccount),
  listEndpoint("verification_details", verificationDetails.schema, VerificationDetailListParams, (s) => s.creditors.listVerificationDetails),
  createEndpoint("verification_details", verificationDetails.schema, BODIES.verification_details.create, (s) => s.creditors.createVerificationDetail)
]

const collectionRoutes: ReadonlyArray<Declaration> = [
  ...listAndGet("customers", customers.schema, CustomerListParams, (s) => s.customers.list, (s) => s.customers.get),
  ...listAndGet("customer_bank_accounts", customerBankAccounts.schema, CustomerBankAccountListParams, (s) => s.customers.listBankAccounts, (s) => s.customers.getBankAccount),
  ...listAndGet("mandates", mandates.schema, MandateListParams, (s) => s.mandates.list, (s) => s.mandates.get),
  ...listAndGet("payments", payments.schema, PaymentListParams, (s) => s.payments.list, (s) => s.payments.get),
  ...listAndGet("refunds", refunds.schema, RefundListParams, (s) => s.payments.listRefunds, (s) => s.payments.getRefund),
  ...listAndGet("events", events.schema, EventListParams, (s) => s.events.list, (s) => s.events.get)
]

const OUTBOUND = "outbound_payments"
/** The spec's two limits on outbound payments: its POSTs count against one, every other call against the other. */
const outboundRoutes: ReadonlyArray<Declaration> = annotateEach([
  createEndpoint(OUTBOUND, outboundPayments.schema, BODIES.outbound_payments.create, (s) => s.outbound.create),
  declare(
    OUTBOUND,
    HttpApiEndpoint.post("withdrawal", "/outbound_payments/withdrawal", {
      payload: Schema.Struct({ data: Schema.optionalKey(BODIES.outbound_payments.withdrawal) }),
      success: single(OUTBOUND, outboundPayments.schema).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) => createHandler(OUTBOUND, BODIES.outbound_payments.withdrawal, s.outbound.withdraw, { allowData: true })
  ),
  listEndpoint(OUTBOUND, outboundPayments.schema, OutboundPaymentListParams, (s) => s.outbound.list),
  getEndpoint(OUTBOUND, outboundPayments.schema, (s) => s.outbound.get),
  updateEndpoint(OUTBOUND, outboundPayments.schema, BODIES.outbound_payments.update, (s) => s.outbound.update),
  bodilessActionEndpoint("approve", OUTBOUND, outboundPayments.schema, (s) => s.outbound.approve),
  actionEndpoint("cancel", OUTBOUND, outboundPayments.schema, BODIES.outbound_payments.cancel, (s) => s.outbound.cancel, OPTIONAL)
], RateLimit, (endpoint) => endpoint.method === "POST" ? OUTBOUND_PAYMENT_WRITES : OUTBOUND_PAYMENT_OTHER)

const IMPORTS = "outbound_payment_imports"
const importRoutes: ReadonlyArray<Declaration> = [
  createEndpoint(IMPORTS, outboundPaymentImports.schema, BODIES.outbound_payment_imports.create, (s) => s.imports.create),
  listEndpoint(IMPORTS, outboundPaymentImports.schema, OutboundPaymentImportListParams, (s) => s.imports.list),
  getEndpoint(IMPORTS, outboundPaymentImports.schema, (s) => s.imports.get),
  listEndpoint("outbound_payment_import_entries", outboundPaymentImportEntries.schema, OutboundPaymentImportEntryListParams, (s) => s.imports.listEntries)
]

const SUB = "subscriptions"
const subscriptionRoutes: ReadonlyArray<Declaration> = [
  createEndpoint(SUB, subscriptions.schema, BODIES.subscriptions.create, (s) => (o, command) => s.subscriptions.create(o, command), TOP_APP_FEE),
  listEndpoint(SUB, subscriptions.schema, SubscriptionListParams, (s) => s.subscriptions.list),
  getEndpoint(SUB, subscriptions.schema, (s) => s.subscriptions.get),
  updateEndpoint(SUB, subscriptions.schema, BODIES.subscriptions.update, (s) => s.subscriptions.update, TOP_APP_FEE),
  actionEndpoint("pause", SUB, subscriptions.schema, BODIES.subscriptions.pause, (s) => s.subscriptions.pause, OPTIONAL),
  actionEndpoint("resume", SUB, subscriptions.schema, BODIES.subscriptions.resume, (s) => s.subscriptions.resume, OPTIONAL),
  actionEndpoint("cancel", SUB, subscriptions.schema, BODIES.subscriptions.cancel, (s) => s.subscriptions.cancel, OPTIONAL)
]

const BR = "billing_requests"
const billingRequestRoutes: ReadonlyArray<Declaration> = [
  createEndpoint(BR, billingRequests.schema, BODIES.billing_requests.create, (s) => s.billingRequests.create, {
    guard: appFeeOnlyForApps(BR, APP_FEE_PATHS.billingRequest)
  }),
  listEndpoint(BR, billingRequests.schema, BillingRequestListParams, (s) => s.billingRequests.list),
  getEndpoint(BR, billingRequests.schema, (s) => s.billingRequests.get),
  actionEndpoint("collect_customer_details", BR, billingRequests.schema, BODIES.billing_requests.collect_customer_details, (s) => s.billingRequests.collectCustomerDetails),
  actionEndpoint("collect_bank_account", BR, billingRequests.schema, BODIES.billing_requests.collect_bank_account, (s) => s.billingRequests.collectBankAccount),
  actionEndpoint("confirm_payer_details", BR, billingRequests.schema, BODIES.billing_requests.confirm_payer_details, (s) => s.billingRequests.confirmPayerDetails, OPTIONAL),
  actionEndpoint("fulfil", BR, billingRequests.schema, BODIES.billing_requests.fulfil, (s) => s.billingRequests.fulfil, OPTIONAL),
  actionEndpoint("cancel", BR, billingRequests.schema, BODIES.billing_requests.cancel, (s) => s.billingRequests.cancel, OPTIONAL),
  actionEndpoint("notify", BR, billingRequests.schema, BODIES.billing_requests.notify, (s) => s.billingRequests.notify),
  bodilessActionEndpoint("fallback", BR, billingRequests.schema, (s) => s.billingRequests.fallback),
  actionEndpoint("choose_currency", BR, billingRequests.schema, BODIES.billing_requests.choose_currency, (s) => s.billingRequests.chooseCurrency),
  actionEndpoint("select_institution", BR, billingRequests.schema, BODIES.billing_requests.select_institution, (s) => s.billingRequests.selectInstitution),
  declare(
    BR,
    HttpApiEndpoint.get("institutions", "/billing_requests/:id/institutions", {
      params: IdParams,
      query: queryDeclaration(queryShapeOf(BillingRequestInstitutionParams)),
      success: InstitutionsAnswer
    }),
    (s) => plainListHandler("institutions", BillingRequestInstitutionParams, (o, p, { id }) => s.billingRequests.institutions(o, id, p))
  ),
  createEndpoint("bank_authorisations", bankAuthorisations.schema, BODIES.bank_authorisations.create, (s) => s.bankAuthorisations.create),
  getEndpoint("bank_authorisations", bankAuthorisations.schema, (s) => s.bankAuthorisations.get),
  createEndpoint("payer_authorisations", payerAuthorisations.schema, BODIES.payer_authorisations.create, (s) => s.payerAuthorisations.create),
  getEndpoint("payer_authorisations", payerAuthorisations.schema, (s) => s.payerAuthorisations.get),
  updateEndpoint("payer_authorisations", payerAuthorisations.schema, BODIES.payer_authorisations.update, (s) => s.payerAuthorisations.update),
  bodilessActionEndpoint("submit", "payer_authorisations", payerAuthorisations.schema, (s) => s.payerAuthorisations.submit),
  bodilessActionEndpoint("confirm", "payer_authorisations", payerAuthorisations.schema, (s) => s.payerAuthorisations.confirm),
  declare(
    "institutions",
    HttpApiEndpoint.get("list", "/institutions", { query: queryDeclaration(queryShapeOf(InstitutionListParams)), success: InstitutionsAnswer }),
    (s) => plainListHandler("institutions", InstitutionListParams, (_o, p) => s.institutions.list(p))
  )
]

const accountRoutes: ReadonlyArray<Declaration> = [
  listEndpoint("payouts", payouts.schema, PayoutListParams, (s) => s.payouts.list),
  getEndpoint("payouts", payouts.schema, (s) => s.payouts.get),
  updateEndpoint("payouts", payouts.schema, BODIES.payouts.update, (s) => s.payouts.update),
  // The lookup is a pure function of the bank details (@paykit/validation); nothing is stored.
  declare(
    BANK_DETAILS_LOOKUPS,
    HttpApiEndpoint.post("lookup", "/bank_details_lookups", {
      payload: single(BANK_DETAILS_LOOKUPS, BankDetailsLookupFields),
      success: Schema.Struct({ bank_details_lookups: EngineDecodedBody })
    }),
    () => postHandler(BANK_DETAILS_LOOKUPS, BankDetailsLookupCreate, (_o, request) => Effect.succeed(lookupBankDetails(request)))
  ),
  listEndpoint("negative_balance_limits", negativeBalanceLimits.schema, NegativeBalanceLimitListParams, (s) => s.negativeBalanceLimits.list),
  ...listAndGet("payment_accounts", paymentAccounts.schema, PaymentAccountListParams, (s) => s.paymentAccounts.list, (s) => s.paymentAccounts.get),
  listEndpoint("tax_rates", TaxRate, TaxRateListParams, (s) => (_o, p) => s.taxRates.list(p)),
  getEndpoint("tax_rates", TaxRate, (s) => (_o, id) => s.taxRates.get(id)),
  /**
   * `POST /branding/payer_themes`: the engine's `PayerThemes.upsert` stores the creditor's theme
   * (one per creditor: a second call updates it); the answer is the theme's id, as the real API's.
   */
  declare(
    PAYER_THEMES,
    HttpApiEndpoint.post("create", "/branding/payer_themes", {
      payload: single(PAYER_THEMES, BODIES.payer_themes.create),
      success: single(PAYER_THEMES, Schema.Struct({ id: Schema.String })).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) =>
      createdWithoutLocation(
        PAYER_THEMES,
        BODIES.payer_themes.create,
        (organisation, command) => Effect.map(s.payerThemes.upsert(organisation, command), (theme) => ({ id: theme.id }))
      )
  )
]

/** The real API's webhook records: every attempt of a delivery, and sending one again. */
const webhookRoutes: ReadonlyArray<Declaration> = [
  listEndpoint("webhooks", webhooks.schema, WebhookListParams, (s) => s.webhooks.list),
  getEndpoint("webhooks", webhooks.schema, (s) => s.webhooks.get),
  bodilessActionEndpoint("retry", "webhooks", webhooks.schema, (s) => s.webhooks.retry)
]

/** paykit's own extension (the real API manages endpoints in its dashboard), said so in the OpenAPI document. */
const webhookEndpointRoutes: ReadonlyArray<Declaration> = annotateEach([
  createEndpoint(WEBHOOK_ENDPOINTS, CreatedWebhookEndpoint, BODIES.webhook_endpoints.create, (s) => s.webhookEndpoints.create),
  listEndpoint(WEBHOOK_ENDPOINTS, WebhookEndpoint, WebhookEndpointListParams, (s) => s.webhookEndpoints.list),
  getEndpoint(WEBHOOK_ENDPOINTS, WebhookEndpoint, (s) => s.webhookEndpoints.get),
  updateEndpoint(WEBHOOK_ENDPOINTS, WebhookEndpoint, BODIES.webhook_endpoints.update, (s) => s.webhookEndpoints.update),
  bodilessActionEndpoint("disable", WEBHOOK_ENDPOINTS, WebhookEndpoint, (s) => s.webhookEndpoints.disable)
], OpenApi.Description, () =>
  "paykit's own API extension, not part of the GoCardless API: the organisation's webhook endpoints. The secret is shown once, in the answer to the creation. docs/webhooks.md")

export const PAYKIT_ROUTES: ReadonlyArray<Declaration> = [
  ...creditorRoutes,
  ...collectionRoutes,
  ...CORE_ROUTES,
  ...outboundRoutes,
  ...importRoutes,
  ...subscriptionRoutes,
  ...billingRequestRoutes,
  ...accountRoutes,
  ...webhookRoutes,
  ...webhookEndpointRoutes,
  ...OPS_ROUTES,
  ...FLOW_ROUTES,
  ...MONEY_ROUTES,
  ...MANDATE_PDF_ROUTES,
  ...DOCUMENT_ROUTES
]

/** The `HttpApi` of a table (its OpenAPI document): a group per resource key, in the order of first appearance. */
export const apiOf = <S>(id: string, declarations: ReadonlyArray<EndpointDeclaration<S>>) => {
  const groups = new Map<string, Array<EndpointDeclaration<S>["endpoint"]>>()
  for (const { group, endpoint } of declarations) groups.set(group, [...(groups.get(group) ?? []), endpoint])
  let api = HttpApi.make(id) as unknown as HttpApi.HttpApi<string, HttpApiGroup.Constraint>
  for (const [name, endpoints] of groups) {
    // The table is untyped by endpoint: the document is all that is read from this definition.
    const group = HttpApiGroup.make(name).add(...(endpoints as unknown as [HttpApiEndpoint.Constraint]))
    api = api.add(group as unknown as HttpApiGroup.Constraint) as unknown as HttpApi.HttpApi<string, HttpApiGroup.Constraint>
  }
  return api
}

export const PaykitApi = apiOf("paykit", PAYKIT_ROUTES)
  .middleware(Gateway)
  .annotateMerge(OpenApi.annotations({
    title: "paykit payments API",
    version: API_VERSION,
    description: "The GoCardless-compatible HTTP JSON API served over the paykit engine."
  }))
