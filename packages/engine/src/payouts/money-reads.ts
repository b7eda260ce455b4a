import { Layer } from "effect"
import { Balances } from "./balances.ts"
import { CurrencyExchangeRates } from "./currency-exchange-rates.ts"
import { PayoutItems } from "./payout-items.ts"

/** The reads of a creditor's money: payout items, balances and exchange rates. */
export const MoneyReads = Layer.mergeAll(PayoutItems.layer, Balances.layer, CurrencyExchangeRates.layer)
