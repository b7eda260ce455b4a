import { Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { BillingRequestFlowCreateRequest, billingRequestFlows } from "./domain/billing-request-flows.ts"
import {
  BillingRequestTemplateCreateRequest, BillingRequestTemplateUpdateRequest, billingRequestTemplates
} from "./domain/billing-request-templates.ts"
import { BillingRequestWithActionsRequest } from "./domain/billing-request-with-actions.ts"
import { RedirectFlowCompleteRequest, RedirectFlowCreateRequest, redirectFlows } from "./domain/redirect-flows.ts"
import { BillingRequestFlowRepository, BillingRequestTemplateRepository, RedirectFlowRepository } from "./repositories.ts"
import { BillingRequestFlows } from "./billing-request-flows.ts"
import { BillingRequestTemplates } from "./billing-request-templates.ts"
import { BillingRequestsWithActions } from "./billing-requests-with-actions.ts"
import { RedirectFlows } from "./redirect-flows.ts"
import { PayerRecordEraserLive } from "./payer-erasure.ts"

/** The hosted flows' room: billing request flows, templates, redirect flows, and billing requests with actions (which store nothing of their own). */
export const flowsRoom = defineRoom({
  stores: [
    store(BillingRequestFlowRepository, billingRequestFlows),
    store(BillingRequestTemplateRepository, billingRequestTemplates),
    store(RedirectFlowRepository, redirectFlows)
  ],
  requestBodies: {
    billing_request_flows: { create: BillingRequestFlowCreateRequest },
    billing_request_templates: { create: BillingRequestTemplateCreateRequest, update: BillingRequestTemplateUpdateRequest },
    billing_request_with_actions: { create: BillingRequestWithActionsRequest },
    redirect_flows: { create: RedirectFlowCreateRequest, complete: RedirectFlowCompleteRequest }
  },
  services: Layer.mergeAll(BillingRequestFlows.layer, BillingRequestTemplates.layer, RedirectFlows.layer, BillingRequestsWithActions.layer),
  ports: PayerRecordEraserLive
})
