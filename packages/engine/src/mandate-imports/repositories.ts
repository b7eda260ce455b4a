import { repositoryService } from "../kernel/repository-service.ts"
import { mandateImportEntries, mandateImportEntryRequests, mandateImports } from "./domain/mandate-imports.ts"

/** The repositories of the mandate imports feature, keyed `@paykit/engine/<name>`. */
export class MandateImportRepository extends repositoryService<MandateImportRepository>()("MandateImportRepository", mandateImports) {}
export class MandateImportEntryRepository extends repositoryService<MandateImportEntryRepository>()("MandateImportEntryRepository", mandateImportEntries) {}
export class MandateImportEntryRequestRepository extends repositoryService<MandateImportEntryRequestRepository>()("MandateImportEntryRequestRepository", mandateImportEntryRequests) {}
