import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, InvalidState, type NotFound, now, type OrganisationId, type StorageError, today, type ValidationFailed, withNewId } from "@paykit/core"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import type { DuplicateId, VersionConflict } from "../kernel/ports/repository.ts"
import { conflictOf, emit, insertNew } from "../kernel/support.ts"
import { type AccountStatementStores, PaymentAccountRepository, PaymentAccountTransactionRepository } from "./repositories.ts"
import type { PaymentAccount } from "./domain/payment-accounts.ts"
import {
  PAYMENT_ACCOUNT_TRANSACTIONS,
  type PaymentAccountTransaction,
  type PaymentAccountTransactionDirection,
  PaymentAccountTransactionListParams
} from "./domain/payment-account-transactions.ts"

const decodeList = decodeAtBoundary(PaymentAccountTransactionListParams, PAYMENT_ACCOUNT_TRANSACTIONS)

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

/**
 * The balance after the newest transaction of an account whose movements predate its statement
 * record (transactions were written before it existed): the record starts from there.
 */
const balanceBeforeStatements = (transactions: Transactions, organisation: string, account: string) =>
  Effect.map(
    transactions.list(organisation, { limit: 1, filters: { payment_account: eq(account) } }),
    (page) => page.items[0]?.balance_after_transaction ?? 0
  )

/** What a concurrent movement of the account makes of this one's statement write: a 409 conflict. */
const STATEMENT_RACES = {
  VersionConflict: (e: VersionConflict) => Effect.fail(conflictOf(e)),
  DuplicateId: (e: DuplicateId) => Effect.fail(new InvalidState({ reason: "conflict", message: e.message })),
  // The record was read in this unit of work.
  NotFound: (e: NotFound) => Effect.die(e)
}

/**
 * Moves the account's statement balance by `signed` and returns the new balance. The record's
 * version check serialises the movements of one account (see `PaymentAccountStatement`).
 */
const moveStatement = (stores: AccountStatementStores, organisation: string, account: string, signed: number) =>
  Effect.gen(function*() {
    const stored = yield* Effect.option(stores.statements.get(organisation, account))
    if (stored._tag === "Some") {
      const balance = stored.value.resource.balance + signed
      yield* stores.statements.update(organisation, { ...stored.value.resource, balance }, stored.value.version)
      return balance
    }
    const balance = (yield* balanceBeforeStatements(stores.transactions, organisation, account)) + signed
    yield* stores.statements.insert(organisation, { id: account, created_at: yield* now, balance })
    return balance
  }).pipe(Effect.catchTags(STATEMENT_RACES))

/**
 * Records a movement on the account, valued today, with its event (`created`), in the caller's
 * unit of work: funds received (`fund`) and outbound payments executed (the daily outbound work)
 * write one each. A movement of the same account committed meanwhile makes it a 409 `conflict`.
 */
export const recordMovement = (stores: AccountStatementStores, organisation: string, account: PaymentAccount, movement: Movement) =>
  Effect.gen(function*() {
    const signed = movement.direction === "credit" ? movement.amount : -movement.amount
    const balance = yield* moveStatement(stores, organisation, account.id, signed)
    const value_date = yield* today()
    const stored = yield* withNewId("payment_account_transaction", (id, created_at) =>
      insertNew(stores.transactions, organisation, {
        id,
        created_at,
        amount: movement.amount,
        balance_after_transaction: balance,
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
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<PaymentAccountTransaction, NotFound | StorageError>
  /** An account's transactions valued in the range, newest first; 404 for an unknown account. */
  readonly list: (organisation: OrganisationId, account: string, params: typeof PaymentAccountTransactionListParams.Encoded) => Effect.Effect<Page<PaymentAccountTransaction>, ValidationFailed | NotFound | StorageError>
}>()("@paykit/engine/PaymentAccountTransactions") {
  static readonly layer: Layer.Layer<PaymentAccountTransactions, never, PaymentAccountRepository | PaymentAccountTransactionRepository> = Layer.effect(
    PaymentAccountTransactions,
    Effect.gen(function*() {
      const accounts = yield* PaymentAccountRepository
      const transactions = yield* PaymentAccountTransactionRepository
      return PaymentAccountTransactions.of({
        get: (o, id) => Effect.map(transactions.get(o, id), (v) => v.resource),
        list: (o, account, plain) =>
          Effect.flatMap(decodeList(plain), (params) =>
            Effect.flatMap(accounts.get(o, account), () =>
              transactions.list(o, toListQuery(params, {
                payment_account: eq(account),
                value_date: { op: "range", gte: params.value_date_from, lte: params.value_date_to },
                direction: params.direction === undefined ? undefined : eq(params.direction)
              }))))
      })
    })
  )
}

