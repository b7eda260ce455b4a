import { repositoryService } from "../kernel/repository-service.ts"
import { repositoriesOf, resourcesOf, store } from "../kernel/room.ts"
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

/** The hosted flows and their neighbours, each with its repository, listed in the room's stores (`room.ts`). */
export const FLOW_STORES = [
  store(BillingRequestFlowRepository, billingRequestFlows),
  store(BillingRequestTemplateRepository, billingRequestTemplates),
  store(RedirectFlowRepository, redirectFlows),
  store(BankAccountHolderVerificationRepository, bankAccountHolderVerifications),
  store(CustomerNotificationRepository, customerNotifications)
] as const

/** Their definitions. */
export const FLOW_DEFINITIONS = resourcesOf([{ stores: FLOW_STORES }])

/** Their repositories, built from whichever storage backend is provided. */
export const FlowRepositoriesFromBackend = repositoriesOf([{ stores: FLOW_STORES }])
