import { repositoryService } from "../kernel/repository-service.ts"
import { paymentAccounts } from "./domain/payment-accounts.ts"
import { paymentAccountStatements, paymentAccountTransactions } from "./domain/payment-account-transactions.ts"

/** The repositories of payment accounts, their transactions and statements, keyed `@paykit/engine/<name>`. */
export class PaymentAccountRepository extends repositoryService<PaymentAccountRepository>()("PaymentAccountRepository", paymentAccounts) {}
export class PaymentAccountTransactionRepository extends repositoryService<PaymentAccountTransactionRepository>()("PaymentAccountTransactionRepository", paymentAccountTransactions) {}
export class PaymentAccountStatementRepository extends repositoryService<PaymentAccountStatementRepository>()("PaymentAccountStatementRepository", paymentAccountStatements) {}

/** Where an account's movements are written: its transactions and its statement balance. */
export interface AccountStatementStores {
  readonly transactions: PaymentAccountTransactionRepository["Service"]
  readonly statements: PaymentAccountStatementRepository["Service"]
}
