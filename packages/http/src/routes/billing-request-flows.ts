import { Effect } from "effect"
import {
  BillingRequestFlow,
  BillingRequestFlows,
  BillingRequestTemplate,
  BillingRequestTemplateListParams,
  BillingRequestTemplates,
  REQUEST_BODIES
} from "@paykit/engine"
import { bodilessActionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Billing request flows (a billing request's hosted pages) and billing request templates (a link that makes one per payer). */

const services = Effect.gen(function*() {
  return { billingRequestFlows: yield* BillingRequestFlows, billingRequestTemplates: yield* BillingRequestTemplates }
})

const BODIES = REQUEST_BODIES
const BRF = "billing_request_flows"
const BRT = "billing_request_templates"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(BRF, BillingRequestFlow, BODIES.billing_request_flows.create, (s) => s.billingRequestFlows.create),
  bodilessActionEndpoint("initialise", BRF, BillingRequestFlow, (s) => s.billingRequestFlows.initialise),
  createEndpoint(BRT, BillingRequestTemplate, BODIES.billing_request_templates.create, (s) => s.billingRequestTemplates.create),
  listEndpoint(BRT, BillingRequestTemplate, BillingRequestTemplateListParams, (s) => s.billingRequestTemplates.list),
  getEndpoint(BRT, BillingRequestTemplate, (s) => s.billingRequestTemplates.get),
  updateEndpoint(BRT, BillingRequestTemplate, BODIES.billing_request_templates.update, (s) => s.billingRequestTemplates.update)
]

export const billingRequestFlowsRoom = routeRoom([BRF, BRT], services, declarations)
