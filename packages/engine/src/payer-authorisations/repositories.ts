import { repositoryService } from "../kernel/repository-service.ts"
import { payerAuthorisations } from "./domain/payer-authorisations.ts"

/** The repository of payer authorisations, keyed `@paykit/engine/<name>`. */
export class PayerAuthorisationRepository extends repositoryService<PayerAuthorisationRepository>()("PayerAuthorisationRepository", payerAuthorisations) {}
