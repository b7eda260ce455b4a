import { Schema } from "effect"
import { CURRENCIES, Currency, IdOf, Timestamp } from "@paykit/core"
import { PageFields } from "../../kernel/list-params.ts"

/** The API's key of balances. */
export const BALANCES = "balances"

/**
 * The balance types of the client's `BalanceBalanceType`, in the order a creditor's money moves
 * through them: payments submitted to the banks, funds confirmed and not yet in a payout, payouts
 * made and not yet sent.
 */
export const BALANCE_TYPES = ["pending_payments_submitted", "confirmed_funds", "pending_payouts"] as const
export type BalanceType = (typeof BALANCE_TYPES)[number]

/** A creditor's balance of one type in one currency (the client's `Balance`); not stored, computed when read. */
export const Balance = Schema.Struct({
  amount: Schema.Int,
  balance_type: Schema.Literals(BALANCE_TYPES),
  currency: Schema.Literals(CURRENCIES),
  last_updated_at: Timestamp,
  links: Schema.Struct({ creditor: Schema.String })
})
export type Balance = typeof Balance.Type

/** `GET /balances` parameters: the creditor is required; cursors are `<currency>.<balance_type>` keys. */
export const BalanceListParams = Schema.Struct({ ...PageFields, creditor: IdOf("creditor") })
export type BalanceListParams = typeof BalanceListParams.Type

/** The API's key of exchange rates. */
export const CURRENCY_EXCHANGE_RATES = "currency_exchange_rates"

/** One rate (the client's `CurrencyExchangeRate`): units of `target` one unit of `source` buys. */
export const CurrencyExchangeRate = Schema.Struct({
  rate: Schema.String,
  source: Schema.Literals(CURRENCIES),
  target: Schema.Literals(CURRENCIES),
  time: Timestamp
})
export type CurrencyExchangeRate = typeof CurrencyExchangeRate.Type

/** `GET /currency_exchange_rates` parameters: optional `source` and `target`; cursors are `<source><target>` keys. */
export const CurrencyExchangeRateListParams = Schema.Struct({
  ...PageFields,
  source: Schema.optionalKey(Currency),
  target: Schema.optionalKey(Currency)
})
export type CurrencyExchangeRateListParams = typeof CurrencyExchangeRateListParams.Type
