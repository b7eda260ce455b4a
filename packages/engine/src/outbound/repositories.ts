import { repositoryService } from "../kernel/repository-service.ts"
import { outboundPayments } from "./domain/outbound-payments.ts"
import { outboundPaymentImportEntries, outboundPaymentImports } from "./domain/outbound-payment-imports.ts"
import { paymentAccounts } from "./domain/payment-accounts.ts"
import { paymentAccountStatements, paymentAccountTransactions } from "./domain/payment-account-transactions.ts"

/** The repositories of the outbound feature's resources, keyed `@paykit/engine/<name>`. */
export class OutboundPaymentRepository extends repositoryService<OutboundPaymentRepository>()("OutboundPaymentRepository", outboundPayments) {}
export class OutboundPaymentImportRepository extends repositoryService<OutboundPaymentImportRepository>()("OutboundPaymentImportRepository", outboundPaymentImports) {}
export class OutboundPaymentImportEntryRepository extends repositoryService<OutboundPaymentImportEntryRepository>()("OutboundPaymentImportEntryRepository", outboundPaymentImportEntries) {}
export class PaymentAccountRepository extends repositoryService<PaymentAccountRepository>()("PaymentAccountRepository", paymentAccounts) {}
export class PaymentAccountTransactionRepository extends repositoryService<PaymentAccountTransactionRepository>()("PaymentAccountTransactionRepository", paymentAccountTransactions) {}
export class PaymentAccountStatementRepository extends repositoryService<PaymentAccountStatementRepository>()("PaymentAccountStatementRepository", paymentAccountStatements) {}

/** Where an account's movements are written: its transactions and its statement balance. */
export interface AccountStatementStores {
  readonly transactions: PaymentAccountTransactionRepository["Service"]
  readonly statements: PaymentAccountStatementRepository["Service"]
}
