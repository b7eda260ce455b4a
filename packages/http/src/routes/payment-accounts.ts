import { Effect } from "effect"
import {
  PAYMENT_ACCOUNT_TRANSACTIONS,
  PaymentAccountListParams,
  PaymentAccounts,
  paymentAccounts,
  PaymentAccountTransaction,
  PaymentAccountTransactionListParams,
  PaymentAccountTransactions
} from "@paykit/engine"
import { type EndpointDeclaration, getEndpoint, listEndpoint, readUnderId } from "../endpoints.ts"
import { nestedListHandler } from "../read-handlers.ts"
import { routeRoom } from "../routes.ts"
import { page } from "../wire.ts"

/** The payment accounts outbound payments are paid from, with their transactions. */

const services = Effect.gen(function*() {
  return { paymentAccounts: yield* PaymentAccounts, transactions: yield* PaymentAccountTransactions }
})

const ACCOUNTS = "payment_accounts"
const PAT = PAYMENT_ACCOUNT_TRANSACTIONS

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  listEndpoint(ACCOUNTS, paymentAccounts.schema, PaymentAccountListParams, (s) => s.paymentAccounts.list),
  getEndpoint(ACCOUNTS, paymentAccounts.schema, (s) => s.paymentAccounts.get),
  getEndpoint(PAT, PaymentAccountTransaction, (s) => s.transactions.get),
  readUnderId(PAT, "list", `/${ACCOUNTS}/:id/transactions`, PaymentAccountTransactionListParams, page(PAT, PaymentAccountTransaction), (s) =>
    nestedListHandler(PAT, PaymentAccountTransactionListParams, s.transactions.list))
]

export const paymentAccountsRoom = routeRoom([ACCOUNTS, PAT], services, declarations)
