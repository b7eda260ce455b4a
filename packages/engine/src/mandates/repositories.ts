import { repositoryService } from "../kernel/repository-service.ts"
import { mandates } from "./domain/mandates.ts"
import { mandateDormancies } from "./domain/mandate-dormancy.ts"

/** The repositories of the mandates' resource and side record, keyed `@paykit/engine/<name>`. */
export class MandateRepository extends repositoryService<MandateRepository>()("MandateRepository", mandates) {}
export class MandateDormancyRepository extends repositoryService<MandateDormancyRepository>()("MandateDormancyRepository", mandateDormancies) {}
