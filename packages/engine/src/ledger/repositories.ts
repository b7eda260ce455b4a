import { repositoryService } from "../kernel/repository-service.ts"
import { negativeBalanceLimits } from "./domain/negative-balance-limits.ts"
import { ledgerEntries } from "./domain/settlement-entries.ts"
import { appAttributions, appFeeEntries } from "./domain/app-fees.ts"

/** The repositories of the ledger's records, keyed `@paykit/engine/<name>`. */
export class NegativeBalanceLimitRepository extends repositoryService<NegativeBalanceLimitRepository>()("NegativeBalanceLimitRepository", negativeBalanceLimits) {}
export class LedgerRepository extends repositoryService<LedgerRepository>()("LedgerRepository", ledgerEntries) {}
export class AppAttributionRepository extends repositoryService<AppAttributionRepository>()("AppAttributionRepository", appAttributions) {}
export class AppFeeLedgerRepository extends repositoryService<AppFeeLedgerRepository>()("AppFeeLedgerRepository", appFeeEntries) {}
