import { repositoryService } from "../kernel/repository-service.ts"
import { mandatePdfs } from "./domain/mandate-pdfs.ts"

/** The repository of the mandate PDFs feature, keyed `@paykit/engine/<name>`. */
export class MandatePdfRepository extends repositoryService<MandatePdfRepository>()("MandatePdfRepository", mandatePdfs) {}
