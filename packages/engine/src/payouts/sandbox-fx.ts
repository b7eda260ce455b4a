import { type Currency } from "@paykit/core"
import { type ExchangeRate, exchangeRateFromScaled } from "@paykit/money"

/**
 * The sandbox's exchange rates: fixed values of one unit of each currency in US cents times 10^6,
 * so every cross rate is exact to 10 decimal places after one division. A production deployment
 * replaces them with a rate feed; the sandbox keeps them fixed so runs are reproducible.
 */
export const SANDBOX_USD_VALUE_MICROCENTS: Readonly<Record<Currency, bigint>> = {
  USD: 100_000_000n,
  GBP: 127_000_000n,
  EUR: 108_000_000n,
  AUD: 66_000_000n,
  CAD: 73_000_000n,
  NZD: 60_000_000n,
  SEK: 9_500_000n,
  DKK: 14_500_000n
}

/** How many units of `to` one unit of `from` buys, rounded down at the 10th decimal place. */
export const sandboxRate = (from: Currency, to: Currency): ExchangeRate | undefined =>
  exchangeRateFromScaled((SANDBOX_USD_VALUE_MICROCENTS[from] * 10n ** 10n) / SANDBOX_USD_VALUE_MICROCENTS[to])
