import { Effect } from "effect"
import { InstalmentScheduleCheckRepository, PaymentRepository } from "../payments/repositories.ts"
import { CreditorBankAccountRepository, CreditorRepository } from "../creditors/repositories.ts"
import { repositoryService } from "../kernel/repository-service.ts"
import { AppFeeLedgerRepository, LedgerRepository } from "../ledger/repositories.ts"
import { payouts } from "./domain/payouts.ts"

/** The repositories of the payouts feature's resources, keyed `@paykit/engine/<name>`. */
export class PayoutRepository extends repositoryService<PayoutRepository>()("PayoutRepository", payouts) {}

/**
 * What the payouts feature reads and writes, taken once when its service is built: its own
 * ledgers and payouts, and the payments and creditors a payout settles and pays.
 */
export interface PayoutStores {
  readonly payouts: PayoutRepository["Service"]
  readonly ledger: LedgerRepository["Service"]
  readonly appFees: AppFeeLedgerRepository["Service"]
  readonly payments: PaymentRepository["Service"]
  /** Instalment schedules to follow once a payment of theirs is paid out. */
  readonly scheduleChecks: InstalmentScheduleCheckRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly accounts: CreditorBankAccountRepository["Service"]
}

export const payoutStores: Effect.Effect<
  PayoutStores,
  never,
  PayoutRepository | LedgerRepository | AppFeeLedgerRepository | PaymentRepository | InstalmentScheduleCheckRepository | CreditorRepository | CreditorBankAccountRepository
> = Effect.gen(function*() {
  return {
    payouts: yield* PayoutRepository,
    ledger: yield* LedgerRepository,
    appFees: yield* AppFeeLedgerRepository,
    payments: yield* PaymentRepository,
    scheduleChecks: yield* InstalmentScheduleCheckRepository,
    creditors: yield* CreditorRepository,
    accounts: yield* CreditorBankAccountRepository
  }
})
