import { Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { paymentAccounts } from "./domain/payment-accounts.ts"
import { paymentAccountStatements, paymentAccountTransactions } from "./domain/payment-account-transactions.ts"
import { PaymentAccounts } from "./payment-accounts.ts"
import { PaymentAccountTransactions } from "./payment-account-transactions.ts"
import { PaymentAccountRepository, PaymentAccountStatementRepository, PaymentAccountTransactionRepository } from "./repositories.ts"

/** The payment accounts' room: the creditor's accounts, their transactions and statements. */
export const paymentAccountsRoom = defineRoom({
  stores: [
    store(PaymentAccountRepository, paymentAccounts),
    store(PaymentAccountTransactionRepository, paymentAccountTransactions),
    store(PaymentAccountStatementRepository, paymentAccountStatements)
  ],
  services: Layer.mergeAll(PaymentAccounts.layer, PaymentAccountTransactions.layer)
})
