import { Context, Effect, Layer } from "effect"
import { CURRENCIES, type Currency, decodeAtBoundary, localDateOfMillis, now, type Timestamp, timestampToMillis, type ValidationFailed } from "@paykit/core"
import { renderExchangeRate } from "@paykit/money"
import type { Page } from "../kernel/ports/list-query.ts"
import { type CurrencyExchangeRate, CurrencyExchangeRateListParams } from "./domain/balances.ts"
import { sandboxRate } from "./sandbox-fx.ts"
import { ascendingPageBy, keyedQueryOf } from "./tax-rates.ts"

/**
 * `GET /currency_exchange_rates`: the rates the money package converts payouts with, which in the
 * sandbox are `sandbox-fx.ts`'s fixed values. Every ordered pair of distinct currencies, filtered
 * by `source` and `target`; `time` is the start of the current day (UTC), as the rates are the
 * day's fixing: the same rate is reported all day, and the sandbox's never changes.
 */

const pairs: ReadonlyArray<readonly [Currency, Currency]> = CURRENCIES.flatMap((source) =>
  CURRENCIES.filter((target) => target !== source).map((target) => [source, target] as const)
)

/** The rates of every pair matching the filters, at `time`, in the list's order (by source, then target). */
export const exchangeRatesAt = (params: CurrencyExchangeRateListParams, time: Timestamp): ReadonlyArray<CurrencyExchangeRate> =>
  pairs
    .filter(([source, target]) => (params.source === undefined || params.source === source) && (params.target === undefined || params.target === target))
    .flatMap(([source, target]) => {
      const rate = sandboxRate(source, target)
      return rate === undefined ? [] : [{ rate: renderExchangeRate(rate), source, target, time }]
    })

const rateKey = (r: CurrencyExchangeRate) => `${r.source}${r.target}`

const decodeList = decodeAtBoundary(CurrencyExchangeRateListParams, "currency_exchange_rates")

const startOfDay = (t: Timestamp): Timestamp => `${localDateOfMillis(timestampToMillis(t))}T00:00:00.000Z` as Timestamp

export class CurrencyExchangeRates extends Context.Service<CurrencyExchangeRates, {
  readonly list: (params: typeof CurrencyExchangeRateListParams.Encoded) => Effect.Effect<Page<CurrencyExchangeRate>, ValidationFailed>
}>()("@paykit/engine/CurrencyExchangeRates") {
  static readonly layer: Layer.Layer<CurrencyExchangeRates> = Layer.succeed(CurrencyExchangeRates, CurrencyExchangeRates.of({
    list: (plain) => Effect.flatMap(decodeList(plain), (params) => Effect.map(now, (t) => ascendingPageBy(exchangeRatesAt(params, startOfDay(t)), rateKey, keyedQueryOf(params))))
  }))
}
