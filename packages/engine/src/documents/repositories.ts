import { repositoryService } from "../kernel/repository-service.ts"
import { logos } from "./domain/logos.ts"
import { publicKeys } from "./domain/public-keys.ts"
import { mandateTransfers, sealedBankDetails } from "./domain/sealed-records.ts"

/** The repositories of the documents room's records, keyed `@paykit/engine/<name>`. */
export class PublicKeyRepository extends repositoryService<PublicKeyRepository>()("PublicKeyRepository", publicKeys) {}
export class SealedBankDetailsRepository extends repositoryService<SealedBankDetailsRepository>()("SealedBankDetailsRepository", sealedBankDetails) {}
export class MandateTransferRepository extends repositoryService<MandateTransferRepository>()("MandateTransferRepository", mandateTransfers) {}
export class LogoRepository extends repositoryService<LogoRepository>()("LogoRepository", logos) {}
