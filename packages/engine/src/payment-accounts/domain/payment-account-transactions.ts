import { Schema } from "effect"
import { ID_PREFIXES, InputDate, LocalDate } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor } from "../../kernel/fields.ts"
import { pageFields } from "../../kernel/list-params.ts"
import { issue, withRules } from "@paykit/validation"

/** The API's key of payment account transactions. */
export const PAYMENT_ACCOUNT_TRANSACTIONS = "payment_account_transactions"

export const PAYMENT_ACCOUNT_TRANSACTION_DIRECTIONS = ["credit", "debit"] as const
export type PaymentAccountTransactionDirection = (typeof PAYMENT_ACCOUNT_TRANSACTION_DIRECTIONS)[number]

/**
 * A movement of money on a payment account (the client's `PaymentAccountTransaction`): funds
 * received (credit) or an outbound payment executed (debit). `balance_after_transaction` is the
 * account's statement balance after it: money in minus money out, reservations for approved
 * payments not counted (they are not movements; `account_balance` on the account counts them).
 */
export const PaymentAccountTransaction = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  balance_after_transaction: Schema.Int,
  counterparty_name: Schema.String,
  currency: Schema.Literal("GBP"),
  description: Schema.String,
  direction: Schema.Literals(PAYMENT_ACCOUNT_TRANSACTION_DIRECTIONS),
  links: Schema.Struct({
    payment_bank_account: Schema.String,
    outbound_payment: Schema.optionalKey(Schema.String),
    payout: Schema.optionalKey(Schema.String)
  }),
  reference: Schema.String,
  value_date: LocalDate
})
export type PaymentAccountTransaction = typeof PaymentAccountTransaction.Type

export const paymentAccountTransactions = defineResource({
  name: PAYMENT_ACCOUNT_TRANSACTIONS,
  idPrefix: ID_PREFIXES.payment_account_transaction,
  schema: PaymentAccountTransaction,
  filters: {
    created_at: (r: PaymentAccountTransaction) => r.created_at,
    payment_account: (r: PaymentAccountTransaction) => r.links.payment_bank_account,
    value_date: (r: PaymentAccountTransaction) => r.value_date,
    direction: (r: PaymentAccountTransaction) => r.direction
  }
})

/**
 * An account's statement balance after its latest movement (engine-internal, not on the wire; its
 * id is the account's). Each movement updates it with its version check, so two movements of one
 * account, from any processes, are serialised (the later one to commit builds on the other or
 * loses with a conflict), and no balance depends on how transaction ids sort: ids carry their
 * process's clock, which a sandbox advance runs days ahead of the stored time.
 */
export const PaymentAccountStatement = Schema.Struct({ id: Id, created_at: CreatedAt, balance: Schema.Int })
export type PaymentAccountStatement = typeof PaymentAccountStatement.Type

export const paymentAccountStatements = defineResource({
  name: "payment_account_statements",
  idPrefix: ID_PREFIXES.payment_account,
  schema: PaymentAccountStatement,
  filters: { created_at: (r: PaymentAccountStatement) => r.created_at }
})

/**
 * `GET /payment_accounts/{id}/transactions` parameters (the client's
 * `PaymentAccountTransactionListRequest`): the value-date range is required, inclusive.
 */
export const PaymentAccountTransactionListParams = withRules(Schema.Struct({
  ...pageFields("payment_account_transaction"),
  value_date_from: InputDate,
  value_date_to: InputDate,
  direction: Schema.optionalKey(Schema.Literals(PAYMENT_ACCOUNT_TRANSACTION_DIRECTIONS))
}), [(p) => p.value_date_from <= p.value_date_to ? [] : [issue(["value_date_to"], "must not be before value_date_from")]])
export type PaymentAccountTransactionListParams = typeof PaymentAccountTransactionListParams.Type
