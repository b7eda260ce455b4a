import { repositoryService } from "../kernel/repository-service.ts"
import { customerBillingDetails } from "./domain/billing-details.ts"
import { billingRequests } from "./domain/billing-requests.ts"

/** The repositories of billing requests and the billing details they collect, keyed `@paykit/engine/<name>`. */
export class BillingRequestRepository extends repositoryService<BillingRequestRepository>()("BillingRequestRepository", billingRequests) {}
export class CustomerBillingDetailRepository extends repositoryService<CustomerBillingDetailRepository>()("CustomerBillingDetailRepository", customerBillingDetails) {}
