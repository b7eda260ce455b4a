import { Effect } from "effect"
import { repositoryService } from "../kernel/repository-service.ts"
import { creditorBankAccounts } from "./domain/creditor-bank-accounts.ts"
import { creditors } from "./domain/creditors.ts"
import { verificationDetails } from "./domain/verification-details.ts"
import { payerThemes } from "./domain/payer-themes.ts"
import { schemeIdentifierLocations } from "./domain/scheme-identifiers.ts"

/** The repositories of the creditors feature's resources, keyed `@paykit/engine/<name>`. */
export class CreditorRepository extends repositoryService<CreditorRepository>()("CreditorRepository", creditors) {}
export class CreditorBankAccountRepository extends repositoryService<CreditorBankAccountRepository>()("CreditorBankAccountRepository", creditorBankAccounts) {}
export class VerificationDetailRepository extends repositoryService<VerificationDetailRepository>()("VerificationDetailRepository", verificationDetails) {}
export class SchemeIdentifierLocationRepository extends repositoryService<SchemeIdentifierLocationRepository>()("SchemeIdentifierLocationRepository", schemeIdentifierLocations) {}
export class PayerThemeRepository extends repositoryService<PayerThemeRepository>()("PayerThemeRepository", payerThemes) {}

/** The stores of a creditor's records, read once when a service is built and handed to its use cases. */
export interface CreditorStores {
  readonly creditors: CreditorRepository["Service"]
  readonly accounts: CreditorBankAccountRepository["Service"]
  readonly details: VerificationDetailRepository["Service"]
  readonly schemeIdentifiers: SchemeIdentifierLocationRepository["Service"]
}

export const creditorStores: Effect.Effect<
  CreditorStores,
  never,
  CreditorRepository | CreditorBankAccountRepository | VerificationDetailRepository | SchemeIdentifierLocationRepository
> = Effect.gen(function*() {
  return {
    creditors: yield* CreditorRepository,
    accounts: yield* CreditorBankAccountRepository,
    details: yield* VerificationDetailRepository,
    schemeIdentifiers: yield* SchemeIdentifierLocationRepository
  }
})
