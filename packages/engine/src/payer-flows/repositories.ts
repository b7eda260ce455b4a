import { Layer } from "effect"
import { fromBackend, repositoryService } from "../kernel/repository-service.ts"
import { bankAuthorisations } from "./domain/bank-authorisations.ts"
import { customerBillingDetails } from "./domain/billing-details.ts"
import { billingRequests } from "./domain/billing-requests.ts"
import { payerAuthorisations } from "./domain/payer-authorisations.ts"
import { bankAccountHolderVerifications } from "./domain/bank-account-holder-verifications.ts"
import { billingRequestFlows } from "./domain/billing-request-flows.ts"
import { billingRequestTemplates } from "./domain/billing-request-templates.ts"
import { customerNotifications } from "./domain/customer-notifications.ts"
import { redirectFlows } from "./domain/redirect-flows.ts"

/** The repositories of the payer-flows feature's resources, keyed `@paykit/engine/<name>`. */
export class BillingRequestRepository extends repositoryService<BillingRequestRepository>()("BillingRequestRepository", billingRequests) {}
export class CustomerBillingDetailRepository extends repositoryService<CustomerBillingDetailRepository>()("CustomerBillingDetailRepository", customerBillingDetails) {}
export class BankAuthorisationRepository extends repositoryService<BankAuthorisationRepository>()("BankAuthorisationRepository", bankAuthorisations) {}
export class PayerAuthorisationRepository extends repositoryService<PayerAuthorisationRepository>()("PayerAuthorisationRepository", payerAuthorisations) {}

export class BillingRequestFlowRepository extends repositoryService<BillingRequestFlowRepository>()("BillingRequestFlowRepository", billingRequestFlows) {}
export class BillingRequestTemplateRepository extends repositoryService<BillingRequestTemplateRepository>()("BillingRequestTemplateRepository", billingRequestTemplates) {}
export class RedirectFlowRepository extends repositoryService<RedirectFlowRepository>()("RedirectFlowRepository", redirectFlows) {}
export class BankAccountHolderVerificationRepository
  extends repositoryService<BankAccountHolderVerificationRepository>()("BankAccountHolderVerificationRepository", bankAccountHolderVerifications) {}
export class CustomerNotificationRepository extends repositoryService<CustomerNotificationRepository>()("CustomerNotificationRepository", customerNotifications) {}

/** The definitions of the hosted flows and their neighbours, listed with the engine's others. */
export const FLOW_DEFINITIONS = [billingRequestFlows, billingRequestTemplates, redirectFlows, bankAccountHolderVerifications, customerNotifications] as const

/** Their repositories, built from whichever storage backend is provided. */
export const FlowRepositoriesFromBackend = Layer.mergeAll(
  fromBackend(BillingRequestFlowRepository, billingRequestFlows),
  fromBackend(BillingRequestTemplateRepository, billingRequestTemplates),
  fromBackend(RedirectFlowRepository, redirectFlows),
  fromBackend(BankAccountHolderVerificationRepository, bankAccountHolderVerifications),
  fromBackend(CustomerNotificationRepository, customerNotifications)
)
