import { repositoryService } from "../kernel/repository-service.ts"
import { instalmentSchedules } from "./domain/instalment-schedules.ts"

/** The repository of the instalments feature's one resource, keyed `@paykit/engine/<name>`. */
export class InstalmentScheduleRepository extends repositoryService<InstalmentScheduleRepository>()("InstalmentScheduleRepository", instalmentSchedules) {}
