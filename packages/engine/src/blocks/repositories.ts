import { repositoryService } from "../kernel/repository-service.ts"
import { bankAccountFingerprints, blockMatches, blocks } from "./domain/blocks.ts"

/** The repositories of the blocks feature, keyed `@paykit/engine/<name>`. */
export class BlockRepository extends repositoryService<BlockRepository>()("BlockRepository", blocks) {}
export class BankAccountFingerprintRepository extends repositoryService<BankAccountFingerprintRepository>()("BankAccountFingerprintRepository", bankAccountFingerprints) {}
export class BlockMatchRepository extends repositoryService<BlockMatchRepository>()("BlockMatchRepository", blockMatches) {}
