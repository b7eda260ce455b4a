import { repositoryService } from "../kernel/repository-service.ts"
import { creditorBankAccounts } from "./domain/creditor-bank-accounts.ts"
import { creditors } from "./domain/creditors.ts"
import { verificationDetails } from "./domain/verification-details.ts"
import { payerThemes } from "./domain/payer-themes.ts"

/** The repositories of the creditors feature's resources, keyed `@paykit/engine/<name>`. */
export class CreditorRepository extends repositoryService<CreditorRepository>()("CreditorRepository", creditors) {}
export class CreditorBankAccountRepository extends repositoryService<CreditorBankAccountRepository>()("CreditorBankAccountRepository", creditorBankAccounts) {}
export class VerificationDetailRepository extends repositoryService<VerificationDetailRepository>()("VerificationDetailRepository", verificationDetails) {}
export class PayerThemeRepository extends repositoryService<PayerThemeRepository>()("PayerThemeRepository", payerThemes) {}
