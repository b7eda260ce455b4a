import { API_VERSION } from "@paykit/core"
import { HttpApi, type HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import type { EndpointDeclaration } from "./endpoints.ts"
import { Gateway } from "./gateway.ts"
import { roomRoutes } from "./routes.ts"
import { bankAccountHolderVerificationsRoom } from "./routes/bank-account-holder-verifications.ts"
import { bankAuthorisationsRoom } from "./routes/bank-authorisations.ts"
import { bankRailsRoom } from "./routes/bank-submissions.ts"
import { billingRequestFlowsRoom } from "./routes/billing-request-flows.ts"
import { billingRequestsRoom } from "./routes/billing-requests.ts"
import { blocksRoom } from "./routes/blocks.ts"
import { creditorsRoom } from "./routes/creditors.ts"
import { customerNotificationsRoom } from "./routes/customer-notifications.ts"
import { customersRoom } from "./routes/customers.ts"
import { documentsRoom } from "./routes/documents.ts"
import { exportsRoom } from "./routes/exports.ts"
import { instalmentsRoom } from "./routes/instalments.ts"
import { mandateImportsRoom } from "./routes/mandate-imports.ts"
import { mandatePdfsRoom } from "./routes/mandate-pdfs.ts"
import { mandatesRoom } from "./routes/mandates.ts"
import { outboundPaymentImportsRoom } from "./routes/outbound-payment-imports.ts"
import { paymentAccountsRoom } from "./routes/payment-accounts.ts"
import { outboundPaymentsRoom } from "./routes/outbound-payments.ts"
import { payerAuthorisationsRoom } from "./routes/payer-authorisations.ts"
import { paymentsRoom } from "./routes/payments.ts"
import { payoutsRoom } from "./routes/payouts.ts"
import { redirectFlowsRoom } from "./routes/redirect-flows.ts"
import { refundsRoom } from "./routes/refunds.ts"
import { subscriptionsRoom } from "./routes/subscriptions.ts"
import { webhooksRoom } from "./routes/webhooks.ts"

/**
 * The route table of the API, assembled from its rooms (`routes/`, one file per family of
 * resources): each room declares its endpoints, reads and writes together, with their resource
 * Schemas, request Schemas (`REQUEST_BODIES`, which the handlers decode bodies with at the edge)
 * or list-parameter Schemas, and the engine operations their handlers call, and binds them to the
 * engine services it takes. Routing, the gateway's annotations, the OpenAPI document and the docs
 * page all come from here. A new resource is its room's file and one line below.
 */

/** The rooms of the API, in the order the OpenAPI document lists their resources. */
export const PAYKIT_ROOMS = [
  creditorsRoom,
  customersRoom,
  mandatesRoom,
  paymentsRoom,
  refundsRoom,
  subscriptionsRoom,
  instalmentsRoom,
  blocksRoom,
  mandateImportsRoom,
  mandatePdfsRoom,
  billingRequestsRoom,
  billingRequestFlowsRoom,
  redirectFlowsRoom,
  bankAuthorisationsRoom,
  payerAuthorisationsRoom,
  bankAccountHolderVerificationsRoom,
  customerNotificationsRoom,
  payoutsRoom,
  outboundPaymentsRoom,
  outboundPaymentImportsRoom,
  paymentAccountsRoom,
  webhooksRoom,
  documentsRoom,
  exportsRoom,
  bankRailsRoom
] as const

/** Every endpoint of the API's rooms: what routing and the OpenAPI document read. */
export const PAYKIT_ROUTES: ReadonlyArray<EndpointDeclaration<never>> = PAYKIT_ROOMS.flatMap((room) => room.declarations)

/** The API's route table, each room bound to the engine services it takes. */
export const paykitRoutes = roomRoutes(PAYKIT_ROOMS)

/** The `HttpApi` of a table (its OpenAPI document): a group per resource key, in the order of first appearance. */
export const apiOf = <S>(id: string, declarations: ReadonlyArray<Pick<EndpointDeclaration<S>, "group" | "endpoint">>) => {
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

/** The API of a table as the OpenAPI document describes it: its title, its version, its bearer security, its servers. */
export const describedApi = <S>(declarations: ReadonlyArray<Pick<EndpointDeclaration<S>, "group" | "endpoint">>, servers: ReadonlyArray<string> = []) =>
  apiOf("paykit", declarations)
    .middleware(Gateway)
    .annotateMerge(OpenApi.annotations({
      title: "paykit payments API",
      version: API_VERSION,
      description: "The GoCardless-compatible HTTP JSON API served over the paykit engine.",
      ...(servers.length === 0 ? {} : { servers: servers.map((url) => ({ url })) })
    }))

export const PaykitApi = describedApi(PAYKIT_ROUTES)
