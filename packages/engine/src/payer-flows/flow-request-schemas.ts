import { BankAccountHolderVerificationCreateRequest } from "./domain/bank-account-holder-verifications.ts"
import { BillingRequestFlowCreateRequest } from "./domain/billing-request-flows.ts"
import { BillingRequestTemplateCreateRequest, BillingRequestTemplateUpdateRequest } from "./domain/billing-request-templates.ts"
import { BillingRequestWithActionsRequest } from "./domain/billing-request-with-actions.ts"
import { RedirectFlowCompleteRequest, RedirectFlowCreateRequest } from "./domain/redirect-flows.ts"

/** The request bodies of the hosted flows and their neighbours, by API resource and action, spread into `REQUEST_BODIES`. */
export const FLOW_REQUEST_BODIES = {
  billing_request_flows: { create: BillingRequestFlowCreateRequest },
  billing_request_templates: { create: BillingRequestTemplateCreateRequest, update: BillingRequestTemplateUpdateRequest },
  billing_request_with_actions: { create: BillingRequestWithActionsRequest },
  redirect_flows: { create: RedirectFlowCreateRequest, complete: RedirectFlowCompleteRequest },
  bank_account_holder_verifications: { create: BankAccountHolderVerificationCreateRequest }
} as const
