import { Schema } from "effect"
import { HttpApi, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  Creditor,
  CreditorCreateRequest,
  CreditorUpdateRequest,
  creditors,
  CustomerBankAccountListParams,
  customerBankAccounts,
  CustomerListParams,
  customers,
  EventListParams,
  events,
  ListParams,
  MandateListParams,
  mandates,
  PaymentListParams,
  payments,
  RefundListParams,
  refunds,
  VerificationDetailCreateRequest,
  VerificationDetailListParams,
  verificationDetails
} from "@paykit/engine"
import { createEndpoint, getEndpoint, listEndpoint, updateEndpoint } from "./endpoints.ts"
import { Gateway } from "./gateway.ts"

/**
 * The API definition: one group per resource key, every endpoint declared with the engine's
 * resource Schema, list-parameter Schema and request Schema, so routing, the OpenAPI document and
 * the docs page all come from here.
 */

/** A body the engine decodes with a Schema it does not export: declared as an object. */
export const EngineDecodedBody = Schema.Record(Schema.String, Schema.Unknown)

export const CreditorsGroup = HttpApiGroup.make("creditors").add(
  listEndpoint("creditors", creditors.schema, ListParams),
  getEndpoint("creditors", creditors.schema),
  createEndpoint("creditors", Creditor, CreditorCreateRequest),
  updateEndpoint("creditors", Creditor, CreditorUpdateRequest)
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
export const VerificationDetailsGroup = HttpApiGroup.make("verification_details").add(
  listEndpoint("verification_details", verificationDetails.schema, VerificationDetailListParams),
  createEndpoint("verification_details", verificationDetails.schema, VerificationDetailCreateRequest)
)

export class PaykitApi extends HttpApi.make("paykit")
  .add(CreditorsGroup)
  .add(CustomersGroup)
  .add(CustomerBankAccountsGroup)
  .add(MandatesGroup)
  .add(PaymentsGroup)
  .add(RefundsGroup)
  .add(EventsGroup)
  .add(VerificationDetailsGroup)
  .middleware(Gateway)
  .annotateMerge(OpenApi.annotations({
    title: "paykit payments API",
    version: "2015-07-06",
    description: "The GoCardless-compatible HTTP JSON API served over the paykit engine."
  }))
{}
