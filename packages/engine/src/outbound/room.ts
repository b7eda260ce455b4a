import { Layer } from "effect"
import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { outboundDeadlines } from "./due.ts"
import { outboundDueWork } from "./jobs.ts"
import { OutboundPaymentImportCreateRequest, outboundPaymentImportEntries, outboundPaymentImports } from "./domain/outbound-payment-imports.ts"
import {
  OutboundPaymentCancelRequest,
  OutboundPaymentCreateRequest,
  outboundPayments,
  OutboundPaymentUpdateRequest,
  OutboundPaymentWithdrawalRequest
} from "./domain/outbound-payments.ts"
import { paymentAccounts } from "./domain/payment-accounts.ts"
import { paymentAccountStatements, paymentAccountTransactions } from "./domain/payment-account-transactions.ts"
import {
  OutboundPaymentImportEntryRepository, OutboundPaymentImportRepository, OutboundPaymentRepository, PaymentAccountRepository,
  PaymentAccountStatementRepository, PaymentAccountTransactionRepository
} from "./repositories.ts"

/** The outbound room: payments out of the creditor's payment account, their imports, and the account's transactions. */
export const outboundRoom = defineRoom({
  resources: [outboundPayments, outboundPaymentImports, outboundPaymentImportEntries, paymentAccounts, paymentAccountTransactions, paymentAccountStatements],
  repositories: Layer.mergeAll(
    fromBackend(OutboundPaymentRepository, outboundPayments),
    fromBackend(OutboundPaymentImportRepository, outboundPaymentImports),
    fromBackend(OutboundPaymentImportEntryRepository, outboundPaymentImportEntries),
    fromBackend(PaymentAccountRepository, paymentAccounts),
    fromBackend(PaymentAccountTransactionRepository, paymentAccountTransactions),
    fromBackend(PaymentAccountStatementRepository, paymentAccountStatements)
  ),
  requestBodies: {
    outbound_payments: {
      create: OutboundPaymentCreateRequest,
      withdrawal: OutboundPaymentWithdrawalRequest,
      update: OutboundPaymentUpdateRequest,
      cancel: OutboundPaymentCancelRequest
    },
    outbound_payment_imports: { create: OutboundPaymentImportCreateRequest }
  },
  dueWork: outboundDueWork,
  deadlines: outboundDeadlines
})
