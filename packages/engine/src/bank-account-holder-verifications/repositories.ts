import { repositoryService } from "../kernel/repository-service.ts"
import { bankAccountHolderVerifications } from "./domain/bank-account-holder-verifications.ts"

/** The repository of bank account holder verifications, keyed `@paykit/engine/<name>`. */
export class BankAccountHolderVerificationRepository
  extends repositoryService<BankAccountHolderVerificationRepository>()("BankAccountHolderVerificationRepository", bankAccountHolderVerifications) {}
