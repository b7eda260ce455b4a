import { defineRoom, store } from "../kernel/room.ts"
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
  stores: [
    store(OutboundPaymentRepository, outboundPayments),
    store(OutboundPaymentImportRepository, outboundPaymentImports),
    store(OutboundPaymentImportEntryRepository, outboundPaymentImportEntries),
    store(PaymentAccountRepository, paymentAccounts),
    store(PaymentAccountTransactionRepository, paymentAccountTransactions),
    store(PaymentAccountStatementRepository, paymentAccountStatements)
  ],
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
