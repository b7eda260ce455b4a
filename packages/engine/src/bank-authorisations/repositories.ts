import { repositoryService } from "../kernel/repository-service.ts"
import { bankAuthorisations } from "./domain/bank-authorisations.ts"

/** The repository of bank authorisations, keyed `@paykit/engine/<name>`. */
export class BankAuthorisationRepository extends repositoryService<BankAuthorisationRepository>()("BankAuthorisationRepository", bankAuthorisations) {}
