import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import {
  BILLING_REQUEST_WITH_ACTIONS,
  BillingRequestFlow,
  BillingRequestTemplate,
  BillingRequestTemplateListParams,
  BillingRequestWithActions,
  bankAccountHolderVerifications,
  CustomerNotification,
  REQUEST_BODIES,
  RedirectFlow
} from "@paykit/engine"
import type { Declaration } from "./api.ts"
import {
  actionEndpoint,
  bodilessActionEndpoint,
  createEndpoint,
  declare,
  getEndpoint,
  Idempotent,
  listEndpoint,
  updateEndpoint
} from "./endpoints.ts"
import { createdWithoutLocation } from "./write-handlers.ts"
import { single } from "./wire.ts"

/**
 * Issue 18's flows and their neighbours: billing request flows, billing request templates,
 * `create_with_actions`, redirect flows, bank account holder verifications and customer
 * notifications, each with the real API's path, verb and envelope (the official client's services).
 */

const BODIES = REQUEST_BODIES
const BRF = "billing_request_flows"
const BRT = "billing_request_templates"
const RE = "redirect_flows"
const BAHV = "bank_account_holder_verifications"
const WITH_ACTIONS = BODIES.billing_request_with_actions.create

export const FLOW_ROUTES: ReadonlyArray<Declaration> = [
  createEndpoint(BRF, BillingRequestFlow, BODIES.billing_request_flows.create, (s) => s.billingRequestFlows.create),
  bodilessActionEndpoint("initialise", BRF, BillingRequestFlow, (s) => s.billingRequestFlows.initialise),
  // The answer holds the billing request and its bank authorisation: no path of its own, the billing request is what a reused key names.
  declare(
    BILLING_REQUEST_WITH_ACTIONS,
    HttpApiEndpoint.post("create", "/billing_requests/create_with_actions", {
      payload: single(BILLING_REQUEST_WITH_ACTIONS, WITH_ACTIONS),
      success: single(BILLING_REQUEST_WITH_ACTIONS, BillingRequestWithActions).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) => createdWithoutLocation(BILLING_REQUEST_WITH_ACTIONS, WITH_ACTIONS, (o, c) => s.billingRequestsWithActions.create(o, c), (made) => made.billing_requests.id)
  ),
  createEndpoint(BRT, BillingRequestTemplate, BODIES.billing_request_templates.create, (s) => s.billingRequestTemplates.create),
  listEndpoint(BRT, BillingRequestTemplate, BillingRequestTemplateListParams, (s) => s.billingRequestTemplates.list),
  getEndpoint(BRT, BillingRequestTemplate, (s) => s.billingRequestTemplates.get),
  updateEndpoint(BRT, BillingRequestTemplate, BODIES.billing_request_templates.update, (s) => s.billingRequestTemplates.update),
  createEndpoint(RE, RedirectFlow, BODIES.redirect_flows.create, (s) => s.redirectFlows.create),
  getEndpoint(RE, RedirectFlow, (s) => s.redirectFlows.get),
  actionEndpoint("complete", RE, RedirectFlow, BODIES.redirect_flows.complete, (s) => s.redirectFlows.complete),
  createEndpoint(BAHV, bankAccountHolderVerifications.schema, BODIES.bank_account_holder_verifications.create, (s) => s.bankAccountHolderVerifications.create),
  getEndpoint(BAHV, bankAccountHolderVerifications.schema, (s) => s.bankAccountHolderVerifications.get),
  bodilessActionEndpoint("handle", "customer_notifications", CustomerNotification, (s) => s.customerNotifications.handle)
]
