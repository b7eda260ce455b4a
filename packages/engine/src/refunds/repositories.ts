import { repositoryService } from "../kernel/repository-service.ts"
import { refunds } from "./domain/refunds.ts"

/** The refunds' repository, keyed `@paykit/engine/<name>`. */
export class RefundRepository extends repositoryService<RefundRepository>()("RefundRepository", refunds) {}
