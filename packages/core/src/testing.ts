/**
 * fast-check arbitraries of core's values for property tests (`@paykit/core/testing`; fast-check
 * is an optional peer): calendar dates in a range, amounts in minor units, currencies, schemes
 * and instants. Dates are given as `YYYY-MM-DD` text, checked by `localDate`: no casts. Each
 * shrinks towards the simplest value (the first date of the range, the smallest amount).
 */
import fc from "fast-check"
import { fromDayNumber, localDate, type LocalDate, MILLIS_PER_DAY, type Timestamp, timestampFromMillis, toDayNumber } from "./dates.ts"
import { type Amount, CURRENCIES, type Currency, unsafeAmount } from "./money.ts"
import { MANDATE_SCHEMES, type MandateScheme, SCHEME_CURRENCY } from "./schemes.ts"

/** Every date from `from` to `to`, both included, each day as likely (`"2026-01-01"`, `"2026-12-31"`). */
export const localDateArb = (from: string, to: string): fc.Arbitrary<LocalDate> => {
  const first = toDayNumber(localDate(from))
  const last = toDayNumber(localDate(to))
  if (last < first) throw new RangeError(`localDateArb: ${to} is before ${from}`)
  return fc.integer({ min: first, max: last }).map(fromDayNumber)
}

/** The bounds of `amountArb` when none are given: 1 to 1,000,000 minor units (0.01 to 10,000.00). */
export const AMOUNT_ARB_DEFAULTS = { min: 1, max: 1_000_000 } as const

/** Amounts in minor units from `min` to `max` (by default a positive amount a payment may charge). */
export const amountArb = (bounds: { readonly min?: number; readonly max?: number } = {}): fc.Arbitrary<Amount> =>
  fc.integer({ min: bounds.min ?? AMOUNT_ARB_DEFAULTS.min, max: bounds.max ?? AMOUNT_ARB_DEFAULTS.max }).map(unsafeAmount)

/** Any currency of the API. */
export const currencyArb: fc.Arbitrary<Currency> = fc.constantFrom(...CURRENCIES)

/** Any debit scheme a mandate can be on. */
export const mandateSchemeArb: fc.Arbitrary<MandateScheme> = fc.constantFrom(...MANDATE_SCHEMES)

/** A debit scheme with the one currency it collects in (`SCHEME_CURRENCY`). */
export const schemeWithCurrencyArb: fc.Arbitrary<{ readonly scheme: MandateScheme; readonly currency: Currency }> =
  mandateSchemeArb.map((scheme) => ({ scheme, currency: SCHEME_CURRENCY[scheme] }))

/** Instants from the start of `from` to the end of `to` (UTC), to the millisecond. */
export const timestampArb = (from: string, to: string): fc.Arbitrary<Timestamp> => {
  const first = toDayNumber(localDate(from)) * MILLIS_PER_DAY
  const last = (toDayNumber(localDate(to)) + 1) * MILLIS_PER_DAY - 1
  if (last < first) throw new RangeError(`timestampArb: ${to} is before ${from}`)
  return fc.integer({ min: first, max: last }).map(timestampFromMillis)
}
