import { Context, Effect, Layer } from "effect"
import { type NotFound, today, withNewId } from "@paykit/core"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { emit, insertNew } from "../kernel/support.ts"
import { PaymentAccountRepository, PaymentAccountTransactionRepository } from "./repositories.ts"
import type { PaymentAccount } from "./domain/payment-accounts.ts"
import type {
  PaymentAccountTransaction,
  PaymentAccountTransactionDirection,
  PaymentAccountTransactionListParams
} from "./domain/payment-account-transactions.ts"

type Transactions = PaymentAccountTransactionRepository["Service"]

/** What moved: its direction and amount (positive), whom with, and what it was for. */
export interface Movement {
  readonly direction: PaymentAccountTransactionDirection
  readonly amount: number
  readonly counterparty_name: string
  readonly description: string
  readonly reference: string
  readonly outbound_payment?: string
}

/** The account's statement balance: the balance after its newest transaction (0 before the first). */
const statementBalance = (transactions: Transactions, organisation: string, account: string) =>
  Effect.map(
    transactions.list(organisation, { limit: 1, filters: { payment_account: eq(account) } }),
    (page) => page.items[0]?.balance_after_transaction ?? 0
  )

/**
 * Records a movement on the account, valued today, with its event (`created`), in the caller's
 * unit of work: funds received (`fund`) and outbound payments executed (the daily outbound work)
 * write one each.
 */
export const recordMovement = (transactions: Transactions, organisation: string, account: PaymentAccount, movement: Movement) =>
  Effect.gen(function*() {
    const before = yield* statementBalance(transactions, organisation, account.id)
    const signed = movement.direction === "credit" ? movement.amount : -movement.amount
    const value_date = yield* today()
    const stored = yield* withNewId("payment_account_transaction", (id, created_at) =>
      insertNew(transactions, organisation, {
        id,
        created_at,
        amount: movement.amount,
        balance_after_transaction: before + signed,
        counterparty_name: movement.counterparty_name,
        currency: "GBP",
        description: movement.description,
        direction: movement.direction,
        links: {
          payment_bank_account: account.id,
          ...(movement.outbound_payment === undefined ? {} : { outbound_payment: movement.outbound_payment })
        },
        reference: movement.reference,
        value_date
      } satisfies PaymentAccountTransaction))
    // The real API's event of a payment account transaction (resource type `payment_account_transactions`).
    yield* emit(organisation, {
      resource_type: "payment_account_transactions",
      action: "created",
      links: { payment_account_transaction: stored.resource.id },
      cause: {
        origin: "gocardless",
        cause: "payment_account_transaction_created",
        description: movement.direction === "credit" ? "Funds were received into the payment account." : "An outbound payment was paid from the payment account."
      }
    })
    return stored
  })

export class PaymentAccountTransactions extends Context.Service<PaymentAccountTransactions, {
  readonly get: (organisation: string, id: string) => Effect.Effect<PaymentAccountTransaction, NotFound>
  /** An account's transactions valued in the range, newest first; 404 for an unknown account. */
  readonly list: (organisation: string, account: string, params: PaymentAccountTransactionListParams) => Effect.Effect<Page<PaymentAccountTransaction>, NotFound>
}>()("@paykit/engine/PaymentAccountTransactions") {
  static readonly layer: Layer.Layer<PaymentAccountTransactions, never, PaymentAccountRepository | PaymentAccountTransactionRepository> = Layer.effect(
    PaymentAccountTransactions,
    Effect.gen(function*() {
      const accounts = yield* PaymentAccountRepository
      const transactions = yield* PaymentAccountTransactionRepository
      return PaymentAccountTransactions.of({
        get: (o, id) => Effect.map(transactions.get(o, id), (v) => v.resource),
        list: (o, account, params) =>
          Effect.flatMap(accounts.get(o, account), () =>
            transactions.list(o, toListQuery(params, {
              payment_account: eq(account),
              value_date: { op: "range", gte: params.value_date_from, lte: params.value_date_to },
              direction: params.direction === undefined ? undefined : eq(params.direction)
            })))
      })
    })
  )
}

