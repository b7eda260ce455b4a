import { Layer } from "effect"
import { BankAccountHolderVerifications } from "./bank-account-holder-verifications.ts"
import { BillingRequestFlows } from "./billing-request-flows.ts"
import { BillingRequestTemplates } from "./billing-request-templates.ts"
import { BillingRequestsWithActions } from "./billing-requests-with-actions.ts"
import { CustomerNotifications } from "./customer-notifications.ts"
import { RedirectFlows } from "./redirect-flows.ts"

/**
 * The hosted flows and their neighbours: billing request flows and templates, redirect
 * flows, billing requests created with actions, bank account holder verifications and customer
 * notifications. Built on the billing request and bank authorisation services.
 */
export const FlowServices = Layer.mergeAll(
  BillingRequestFlows.layer,
  BillingRequestTemplates.layer,
  RedirectFlows.layer,
  BillingRequestsWithActions.layer,
  BankAccountHolderVerifications.layer,
  CustomerNotifications.layer
)
