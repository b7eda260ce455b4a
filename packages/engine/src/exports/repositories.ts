import { repositoryService } from "../kernel/repository-service.ts"
import { dataExports } from "./domain/exports.ts"

/** The repository of the exports feature, keyed `@paykit/engine/<name>`. */
export class ExportRepository extends repositoryService<ExportRepository>()("ExportRepository", dataExports) {}
