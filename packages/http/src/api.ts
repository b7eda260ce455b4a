import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  Creditor,
  CreditorCreateRequest,
  CreditorUpdateRequest,
  creditors,
  customerBankAccounts,
  customers,
  events,
  mandates,
  payments,
  type ResourceDefinition,
  refunds
} from "@paykit/engine"
import { Gateway } from "./gateway.ts"
import { listQuery, page, single } from "./wire.ts"

/**
 * The API definition: one group per resource, every endpoint declared with the engine's resource
 * Schema, so routing, the OpenAPI document and the docs page all come from here.
 */

const IdParams = { id: Schema.String }

/** `GET /<name>` and `GET /<name>/{id}` of a resource. */
const readGroup = <const Name extends string, A extends { readonly id: string; readonly created_at: string }, K extends string>(
  name: Name,
  definition: ResourceDefinition<A, K>
) =>
  HttpApiGroup.make(name).add(
    HttpApiEndpoint.get("list", `/${name}`, {
      query: listQuery(Object.keys(definition.filters)),
      success: page(name, definition.schema)
    }),
    HttpApiEndpoint.get("get", `/${name}/:id`, { params: IdParams, success: single(name, definition.schema) })
  )

export const CreditorsGroup = readGroup("creditors", creditors).add(
  HttpApiEndpoint.post("create", "/creditors", {
    payload: single("creditors", CreditorCreateRequest),
    success: single("creditors", Creditor).pipe(HttpApiSchema.status(201))
  }),
  HttpApiEndpoint.put("update", "/creditors/:id", {
    params: IdParams,
    payload: single("creditors", CreditorUpdateRequest),
    success: single("creditors", Creditor)
  })
)
export const CustomersGroup = readGroup("customers", customers)
export const CustomerBankAccountsGroup = readGroup("customer_bank_accounts", customerBankAccounts)
export const MandatesGroup = readGroup("mandates", mandates)
export const PaymentsGroup = readGroup("payments", payments)
export const RefundsGroup = readGroup("refunds", refunds)
export const EventsGroup = readGroup("events", events)

export class PaykitApi extends HttpApi.make("paykit")
  .add(CreditorsGroup)
  .add(CustomersGroup)
  .add(CustomerBankAccountsGroup)
  .add(MandatesGroup)
  .add(PaymentsGroup)
  .add(RefundsGroup)
  .add(EventsGroup)
  .middleware(Gateway)
  .annotateMerge(OpenApi.annotations({
    title: "paykit payments API",
    version: "2015-07-06",
    description: "The GoCardless-compatible HTTP JSON API served over the paykit engine."
  }))
{}
