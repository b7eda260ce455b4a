import { type Currency, isCountryCode } from "@paykit/core"
import {
  type ExchangeRate, exchangeRateFromScaled, type ExchangeRateString, renderExchangeRate, TAX_CURRENCY, type TaxDestination, taxJurisdictionOf
} from "@paykit/money"

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

/**
 * Where a payout's item taxes are shown: its `tax_currency`, with the sandbox's rate from the
 * payout's currency when they differ. The one rule of both the payout's assembly
 * (`merchantTaxInput`) and `GET /payout_items`, so a payout's items carry the same tax figures
 * whichever renders them.
 */
export const payoutTaxDestination = (currency: Currency, taxCurrency: Currency | null): TaxDestination | null => {
  if (taxCurrency === null) return null
  const rate = taxCurrency === currency ? undefined : sandboxRate(currency, taxCurrency)
  return rate === undefined ? { currency: taxCurrency } : { currency: taxCurrency, rate }
}

/** The tax rate a merchant payout's assembly is given: the rate of `payoutTaxDestination`. */
export const merchantTaxInput = (country: string | null, currency: Currency): { readonly tax_exchange_rate?: ExchangeRateString } => {
  const jurisdiction = country !== null && isCountryCode(country) ? taxJurisdictionOf(country) : null
  const rate = payoutTaxDestination(currency, jurisdiction === null ? null : TAX_CURRENCY[jurisdiction])?.rate
  return rate === undefined ? {} : { tax_exchange_rate: renderExchangeRate(rate) }
}
