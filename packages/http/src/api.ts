import { API_VERSION } from "@paykit/core"
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  BankAuthorisationCreateRequest,
  bankAuthorisations,
  BillingRequestInstitutionParams,
  BillingRequestListParams,
  billingRequests,
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  Creditor,
  CreditorCreateRequest,
  CreditorBankAccount,
  CreditorBankAccountCreateRequest,
  CreditorBankAccountListParams,
  CreditorUpdateRequest,
  creditors,
  CustomerBankAccountListParams,
  customerBankAccounts,
  CustomerListParams,
  customers,
  EventListParams,
  events,
  Institution,
  InstitutionListParams,
  ListParams,
  MandateListParams,
  mandates,
  NegativeBalanceLimitListParams,
  negativeBalanceLimits,
  NotifyRequest,
  OutboundPaymentImportEntryListParams,
  outboundPaymentImportEntries,
  OutboundPaymentImportListParams,
  outboundPaymentImports,
  OutboundPaymentListParams,
  outboundPayments,
  PayerAuthorisationBody,
  payerAuthorisations,
  PaymentAccountListParams,
  paymentAccounts,
  PaymentListParams,
  payments,
  PayoutListParams,
  payouts,
  RefundListParams,
  refunds,
  REQUEST_BODIES,
  SelectInstitutionRequest,
  SubscriptionListParams,
  subscriptions,
  SubscriptionUpdateRequest,
  TaxRateListParams,
  VerificationDetailCreateRequest,
  VerificationDetailListParams,
  verificationDetails
} from "@paykit/engine"
import { TaxRate } from "@paykit/money"
import { BankDetailsLookupFields } from "@paykit/validation"
import {
  actionEndpoint,
  createEndpoint,
  getEndpoint,
  IdParams,
  listEndpoint,
  NoParameters,
  postEndpoint,
  updateEndpoint
} from "./endpoints.ts"
import { Gateway } from "./gateway.ts"
import { queryDeclaration, queryShapeOf } from "./query-params.ts"
import { single } from "./wire.ts"

/**
 * The API definition: one group per resource key, every endpoint declared with the engine's
 * resource Schema, list-parameter Schema and request Schema, so routing, the OpenAPI document and
 * the docs page all come from here.
 */

/** An answer computed by @paykit/validation with no exported Schema (the bank details lookup): declared as an object. */
export const EngineDecodedBody = Schema.Record(Schema.String, Schema.Unknown)

export const CreditorsGroup = HttpApiGroup.make("creditors").add(
  listEndpoint("creditors", creditors.schema, ListParams),
  getEndpoint("creditors", creditors.schema),
  createEndpoint("creditors", Creditor, CreditorCreateRequest),
  updateEndpoint("creditors", Creditor, CreditorUpdateRequest)
)
const CBA = "creditor_bank_accounts"
export const CreditorBankAccountsGroup = HttpApiGroup.make(CBA).add(
  createEndpoint(CBA, CreditorBankAccount, CreditorBankAccountCreateRequest),
  listEndpoint(CBA, CreditorBankAccount, CreditorBankAccountListParams),
  getEndpoint(CBA, CreditorBankAccount),
  actionEndpoint("disable", CBA, CreditorBankAccount, NoParameters)
)
export const VerificationDetailsGroup = HttpApiGroup.make("verification_details").add(
  listEndpoint("verification_details", verificationDetails.schema, VerificationDetailListParams),
  createEndpoint("verification_details", verificationDetails.schema, VerificationDetailCreateRequest)
)
export const CustomersGroup = HttpApiGroup.make("customers").add(
  listEndpoint("customers", customers.schema, CustomerListParams),
  getEndpoint("customers", customers.schema)
)
export const CustomerBankAccountsGroup = HttpApiGroup.make("customer_bank_accounts").add(
  listEndpoint("customer_bank_accounts", customerBankAccounts.schema, CustomerBankAccountListParams),
  getEndpoint("customer_bank_accounts", customerBankAccounts.schema)
)
export const MandatesGroup = HttpApiGroup.make("mandates").add(
  listEndpoint("mandates", mandates.schema, MandateListParams),
  getEndpoint("mandates", mandates.schema)
)
export const PaymentsGroup = HttpApiGroup.make("payments").add(
  listEndpoint("payments", payments.schema, PaymentListParams),
  getEndpoint("payments", payments.schema)
)
export const RefundsGroup = HttpApiGroup.make("refunds").add(
  listEndpoint("refunds", refunds.schema, RefundListParams),
  getEndpoint("refunds", refunds.schema)
)
export const EventsGroup = HttpApiGroup.make("events").add(
  listEndpoint("events", events.schema, EventListParams),
  getEndpoint("events", events.schema)
)

const OUTBOUND = "outbound_payments"
export const OutboundPaymentsGroup = HttpApiGroup.make(OUTBOUND).add(
  createEndpoint(OUTBOUND, outboundPayments.schema, REQUEST_BODIES.outbound_payments.create),
  postEndpoint("withdrawal", "/outbound_payments/withdrawal", OUTBOUND, outboundPayments.schema, REQUEST_BODIES.outbound_payments.withdrawal, { status: 201 }),
  listEndpoint(OUTBOUND, outboundPayments.schema, OutboundPaymentListParams),
  getEndpoint(OUTBOUND, outboundPayments.schema),
  updateEndpoint(OUTBOUND, outboundPayments.schema, REQUEST_BODIES.outbound_payments.update),
  actionEndpoint("approve", OUTBOUND, outboundPayments.schema, NoParameters),
  actionEndpoint("cancel", OUTBOUND, outboundPayments.schema, REQUEST_BODIES.outbound_payments.cancel)
)
export const OutboundPaymentImportsGroup = HttpApiGroup.make("outbound_payment_imports").add(
  createEndpoint("outbound_payment_imports", outboundPaymentImports.schema, REQUEST_BODIES.outbound_payment_imports.create),
  listEndpoint("outbound_payment_imports", outboundPaymentImports.schema, OutboundPaymentImportListParams),
  getEndpoint("outbound_payment_imports", outboundPaymentImports.schema)
)
export const OutboundPaymentImportEntriesGroup = HttpApiGroup.make("outbound_payment_import_entries").add(
  listEndpoint("outbound_payment_import_entries", outboundPaymentImportEntries.schema, OutboundPaymentImportEntryListParams)
)

export const SubscriptionsGroup = HttpApiGroup.make("subscriptions").add(
  createEndpoint("subscriptions", subscriptions.schema, REQUEST_BODIES.subscriptions.create),
  listEndpoint("subscriptions", subscriptions.schema, SubscriptionListParams),
  getEndpoint("subscriptions", subscriptions.schema),
  updateEndpoint("subscriptions", subscriptions.schema, SubscriptionUpdateRequest),
  actionEndpoint("pause", "subscriptions", subscriptions.schema, REQUEST_BODIES.subscriptions.pause),
  actionEndpoint("resume", "subscriptions", subscriptions.schema, REQUEST_BODIES.subscriptions.resume),
  actionEndpoint("cancel", "subscriptions", subscriptions.schema, REQUEST_BODIES.subscriptions.cancel)
)

const BR = "billing_requests"
export const BillingRequestsGroup = HttpApiGroup.make(BR).add(
  createEndpoint(BR, billingRequests.schema, REQUEST_BODIES.billing_requests.create),
  listEndpoint(BR, billingRequests.schema, BillingRequestListParams),
  getEndpoint(BR, billingRequests.schema),
  actionEndpoint("collect_customer_details", BR, billingRequests.schema, CollectCustomerDetailsRequest),
  actionEndpoint("collect_bank_account", BR, billingRequests.schema, REQUEST_BODIES.billing_requests.collect_bank_account),
  actionEndpoint("confirm_payer_details", BR, billingRequests.schema, ConfirmPayerDetailsRequest),
  actionEndpoint("fulfil", BR, billingRequests.schema, REQUEST_BODIES.billing_requests.fulfil),
  actionEndpoint("cancel", BR, billingRequests.schema, REQUEST_BODIES.billing_requests.cancel),
  actionEndpoint("notify", BR, billingRequests.schema, NotifyRequest),
  actionEndpoint("fallback", BR, billingRequests.schema, NoParameters),
  actionEndpoint("choose_currency", BR, billingRequests.schema, ChooseCurrencyRequest),
  actionEndpoint("select_institution", BR, billingRequests.schema, SelectInstitutionRequest),
  HttpApiEndpoint.get("institutions", "/billing_requests/:id/institutions", {
    params: IdParams,
    query: queryDeclaration(queryShapeOf(BillingRequestInstitutionParams)),
    success: Schema.Struct({ institutions: Schema.Array(Institution) })
  })
)
export const BankAuthorisationsGroup = HttpApiGroup.make("bank_authorisations").add(
  createEndpoint("bank_authorisations", bankAuthorisations.schema, BankAuthorisationCreateRequest),
  getEndpoint("bank_authorisations", bankAuthorisations.schema)
)
export const PayerAuthorisationsGroup = HttpApiGroup.make("payer_authorisations").add(
  createEndpoint("payer_authorisations", payerAuthorisations.schema, PayerAuthorisationBody),
  getEndpoint("payer_authorisations", payerAuthorisations.schema),
  updateEndpoint("payer_authorisations", payerAuthorisations.schema, PayerAuthorisationBody),
  actionEndpoint("submit", "payer_authorisations", payerAuthorisations.schema, NoParameters),
  actionEndpoint("confirm", "payer_authorisations", payerAuthorisations.schema, NoParameters)
)
export const InstitutionsGroup = HttpApiGroup.make("institutions").add(
  HttpApiEndpoint.get("list", "/institutions", {
    query: queryDeclaration(queryShapeOf(InstitutionListParams)),
    success: Schema.Struct({ institutions: Schema.Array(Institution) })
  })
)
export const PayoutsGroup = HttpApiGroup.make("payouts").add(
  listEndpoint("payouts", payouts.schema, PayoutListParams),
  getEndpoint("payouts", payouts.schema),
  updateEndpoint("payouts", payouts.schema, REQUEST_BODIES.payouts.update)
)
export const BankDetailsLookupsGroup = HttpApiGroup.make("bank_details_lookups").add(
  HttpApiEndpoint.post("lookup", "/bank_details_lookups", {
    payload: single("bank_details_lookups", BankDetailsLookupFields),
    success: Schema.Struct({ bank_details_lookups: EngineDecodedBody })
  })
)
export const NegativeBalanceLimitsGroup = HttpApiGroup.make("negative_balance_limits").add(
  listEndpoint("negative_balance_limits", negativeBalanceLimits.schema, NegativeBalanceLimitListParams)
)
export const PaymentAccountsGroup = HttpApiGroup.make("payment_accounts").add(
  listEndpoint("payment_accounts", paymentAccounts.schema, PaymentAccountListParams),
  getEndpoint("payment_accounts", paymentAccounts.schema)
)
export const TaxRatesGroup = HttpApiGroup.make("tax_rates").add(
  listEndpoint("tax_rates", TaxRate, TaxRateListParams),
  getEndpoint("tax_rates", TaxRate)
)
export const PayerThemesGroup = HttpApiGroup.make("payer_themes").add(
  createEndpoint("payer_themes", Schema.Struct({ id: Schema.String }), REQUEST_BODIES.payer_themes.create, "/branding/payer_themes")
)

export class PaykitApi extends HttpApi.make("paykit")
  .add(CreditorsGroup)
  .add(CreditorBankAccountsGroup)
  .add(VerificationDetailsGroup)
  .add(CustomersGroup)
  .add(CustomerBankAccountsGroup)
  .add(MandatesGroup)
  .add(PaymentsGroup)
  .add(RefundsGroup)
  .add(EventsGroup)
  .add(OutboundPaymentsGroup)
  .add(OutboundPaymentImportsGroup)
  .add(OutboundPaymentImportEntriesGroup)
  .add(SubscriptionsGroup)
  .add(BillingRequestsGroup)
  .add(BankAuthorisationsGroup)
  .add(PayerAuthorisationsGroup)
  .add(InstitutionsGroup)
  .add(PayoutsGroup)
  .add(BankDetailsLookupsGroup)
  .add(NegativeBalanceLimitsGroup)
  .add(PaymentAccountsGroup)
  .add(TaxRatesGroup)
  .add(PayerThemesGroup)
  .middleware(Gateway)
  .annotateMerge(OpenApi.annotations({
    title: "paykit payments API",
    version: API_VERSION,
    description: "The GoCardless-compatible HTTP JSON API served over the paykit engine."
  }))
{}
