import { Layer } from "effect"
import { fromBackend } from "./kernel/repository-service.ts"
import { BankAccountHolderVerifications } from "./bank-account-holder-verifications/bank-account-holder-verifications.ts"
import {
  BankAccountHolderVerificationCreateRequest, bankAccountHolderVerifications
} from "./bank-account-holder-verifications/domain/bank-account-holder-verifications.ts"
import { BankAccountHolderVerificationRepository } from "./bank-account-holder-verifications/repositories.ts"
import { CustomerNotifications } from "./customer-notifications/customer-notifications.ts"
import { customerNotifications } from "./customer-notifications/domain/customer-notifications.ts"
import { CustomerNotificationRepository } from "./customer-notifications/repositories.ts"
import { BillingRequestFlows } from "./flows/billing-request-flows.ts"
import { BillingRequestTemplates } from "./flows/billing-request-templates.ts"
import { BillingRequestsWithActions } from "./flows/billing-requests-with-actions.ts"
import { BillingRequestFlowCreateRequest, billingRequestFlows } from "./flows/domain/billing-request-flows.ts"
import {
  BillingRequestTemplateCreateRequest, BillingRequestTemplateUpdateRequest, billingRequestTemplates
} from "./flows/domain/billing-request-templates.ts"
import { BillingRequestWithActionsRequest } from "./flows/domain/billing-request-with-actions.ts"
import { RedirectFlowCompleteRequest, RedirectFlowCreateRequest, redirectFlows } from "./flows/domain/redirect-flows.ts"
import { RedirectFlows } from "./flows/redirect-flows.ts"
import { BillingRequestFlowRepository, BillingRequestTemplateRepository, RedirectFlowRepository } from "./flows/repositories.ts"

/*
 * Groups of rooms the engine's central lists (`engine.ts`, `repositories.ts`, `request-schemas.ts`)
 * still take as one entry each: the hosted flows (`flows/`) with their neighbours
 * (`bank-account-holder-verifications/`, `customer-notifications/`). Each room owns its services,
 * definitions, repositories and request Schemas; this file only lists them together.
 */

/** The hosted flows and their neighbours' services, built on the billing request and bank authorisation services. */
export const FlowServices = Layer.mergeAll(
  BillingRequestFlows.layer,
  BillingRequestTemplates.layer,
  RedirectFlows.layer,
  BillingRequestsWithActions.layer,
  BankAccountHolderVerifications.layer,
  CustomerNotifications.layer
)

/** Their resource definitions, listed with the engine's others. */
export const FLOW_DEFINITIONS = [billingRequestFlows, billingRequestTemplates, redirectFlows, bankAccountHolderVerifications, customerNotifications] as const

/** Their repositories, built from whichever storage backend is provided. */
export const FlowRepositoriesFromBackend = Layer.mergeAll(
  fromBackend(BillingRequestFlowRepository, billingRequestFlows),
  fromBackend(BillingRequestTemplateRepository, billingRequestTemplates),
  fromBackend(RedirectFlowRepository, redirectFlows),
  fromBackend(BankAccountHolderVerificationRepository, bankAccountHolderVerifications),
  fromBackend(CustomerNotificationRepository, customerNotifications)
)

/** Their request bodies, by API resource and action, spread into `REQUEST_BODIES`. */
export const FLOW_REQUEST_BODIES = {
  billing_request_flows: { create: BillingRequestFlowCreateRequest },
  billing_request_templates: { create: BillingRequestTemplateCreateRequest, update: BillingRequestTemplateUpdateRequest },
  billing_request_with_actions: { create: BillingRequestWithActionsRequest },
  redirect_flows: { create: RedirectFlowCreateRequest, complete: RedirectFlowCompleteRequest },
  bank_account_holder_verifications: { create: BankAccountHolderVerificationCreateRequest }
} as const
