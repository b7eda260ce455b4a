import { repositoryService } from "../kernel/repository-service.ts"
import { billingRequestFlows } from "./domain/billing-request-flows.ts"
import { billingRequestTemplates } from "./domain/billing-request-templates.ts"
import { redirectFlows } from "./domain/redirect-flows.ts"

/** The repositories of billing request flows, billing request templates and redirect flows, keyed `@paykit/engine/<name>`. */
export class BillingRequestFlowRepository extends repositoryService<BillingRequestFlowRepository>()("BillingRequestFlowRepository", billingRequestFlows) {}
export class BillingRequestTemplateRepository extends repositoryService<BillingRequestTemplateRepository>()("BillingRequestTemplateRepository", billingRequestTemplates) {}
export class RedirectFlowRepository extends repositoryService<RedirectFlowRepository>()("RedirectFlowRepository", redirectFlows) {}
