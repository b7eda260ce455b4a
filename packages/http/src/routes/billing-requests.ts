import { Effect } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import {
  BILLING_REQUEST_WITH_ACTIONS,
  BillingRequestInstitutionParams,
  BillingRequestListParams,
  BillingRequests,
  billingRequests,
  BillingRequestsWithActions,
  BillingRequestWithActions,
  REQUEST_BODIES
} from "@paykit/engine"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "../app-fees.ts"
import {
  actionEndpoint,
  bodilessActionEndpoint,
  createEndpoint,
  declare,
  type EndpointDeclaration,
  getEndpoint,
  IdParams,
  Idempotent,
  listEndpoint,
  OPTIONAL_ATTRIBUTES
} from "../endpoints.ts"
import { queryDeclaration, queryShapeOf } from "../query-params.ts"
import { plainListHandler } from "../read-handlers.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { createdWithoutLocation } from "../write-handlers.ts"
import { InstitutionsAnswer } from "./bank-authorisations.ts"

/**
 * Billing requests: created (an app fee only from a partner app), or created with their actions
 * in one call, read, taken through their actions, and the institutions a request's payer may
 * choose among.
 */

const services = Effect.gen(function*() {
  return { billingRequests: yield* BillingRequests, billingRequestsWithActions: yield* BillingRequestsWithActions }
})

const BODIES = REQUEST_BODIES
const BR = "billing_requests"
const WITH_ACTIONS = BODIES.billing_request_with_actions.create

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(BR, billingRequests.schema, BODIES.billing_requests.create, (s) => s.billingRequests.create, {
    guard: appFeeOnlyForApps(BR, APP_FEE_PATHS.billingRequest)
  }),
  listEndpoint(BR, billingRequests.schema, BillingRequestListParams, (s) => s.billingRequests.list),
  getEndpoint(BR, billingRequests.schema, (s) => s.billingRequests.get),
  actionEndpoint("collect_customer_details", BR, billingRequests.schema, BODIES.billing_requests.collect_customer_details, (s) => s.billingRequests.collectCustomerDetails),
  actionEndpoint("collect_bank_account", BR, billingRequests.schema, BODIES.billing_requests.collect_bank_account, (s) => s.billingRequests.collectBankAccount),
  actionEndpoint("confirm_payer_details", BR, billingRequests.schema, BODIES.billing_requests.confirm_payer_details, (s) => s.billingRequests.confirmPayerDetails, OPTIONAL_ATTRIBUTES),
  actionEndpoint("fulfil", BR, billingRequests.schema, BODIES.billing_requests.fulfil, (s) => s.billingRequests.fulfil, OPTIONAL_ATTRIBUTES),
  actionEndpoint("cancel", BR, billingRequests.schema, BODIES.billing_requests.cancel, (s) => s.billingRequests.cancel, OPTIONAL_ATTRIBUTES),
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
  // The answer holds the billing request and its bank authorisation: no path of its own, the billing request is what a reused key names.
  declare(
    BILLING_REQUEST_WITH_ACTIONS,
    HttpApiEndpoint.post("create", "/billing_requests/create_with_actions", {
      payload: single(BILLING_REQUEST_WITH_ACTIONS, WITH_ACTIONS),
      success: single(BILLING_REQUEST_WITH_ACTIONS, BillingRequestWithActions).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) => createdWithoutLocation(BILLING_REQUEST_WITH_ACTIONS, WITH_ACTIONS, (o, c) => s.billingRequestsWithActions.create(o, c), (made) => made.billing_requests.id)
  )
]

export const billingRequestsRoom = routeRoom([BR], services, declarations)
