import { repositoryService } from "../kernel/repository-service.ts"
import { bankAuthorisations } from "./domain/bank-authorisations.ts"
import { customerBillingDetails } from "./domain/billing-details.ts"
import { billingRequests } from "./domain/billing-requests.ts"
import { payerAuthorisations } from "./domain/payer-authorisations.ts"

/** The repositories of the payer-flows feature's resources, keyed `@paykit/engine/<name>`. */
export class BillingRequestRepository extends repositoryService<BillingRequestRepository>()("BillingRequestRepository", billingRequests) {}
export class CustomerBillingDetailRepository extends repositoryService<CustomerBillingDetailRepository>()("CustomerBillingDetailRepository", customerBillingDetails) {}
export class BankAuthorisationRepository extends repositoryService<BankAuthorisationRepository>()("BankAuthorisationRepository", bankAuthorisations) {}
export class PayerAuthorisationRepository extends repositoryService<PayerAuthorisationRepository>()("PayerAuthorisationRepository", payerAuthorisations) {}
