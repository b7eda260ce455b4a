import { EXCHANGE_RATE_MAX_DECIMALS, InvalidState } from "@paykit/core"
import { Result, Schema } from "effect"
import { parseDecimal, renderFixed, rescale } from "./decimal.ts"
import { divRoundHalfEven, isSafeBigInt } from "./rounding.ts"

/**
 * FX exchange rates: exact decimals with up to `EXCHANGE_RATE_MAX_DECIMALS` (10) places, held as
 * a bigint numerator over the fixed denominator 10^10. A rate says how many units of the target
 * currency one unit of the source currency buys; every supported currency has two minor-unit
 * digits, so the same rate converts minor units to minor units.
 */

const SCALE = EXCHANGE_RATE_MAX_DECIMALS
const DENOMINATOR = 10n ** BigInt(SCALE)

export interface ExchangeRate {
  readonly _tag: "ExchangeRate"
  /** The rate times 10^10. Always positive. */
  readonly scaled: bigint
}

const make = (scaled: bigint): ExchangeRate => ({ _tag: "ExchangeRate", scaled })

/** Parses untrusted text: a positive decimal with 1 to 10 decimal places or none; undefined otherwise. */
export const parseExchangeRate = (s: string): ExchangeRate | undefined => {
  const d = parseDecimal(s, SCALE)
  if (d === undefined) return undefined
  const scaled = rescale(d, SCALE)
  return scaled > 0n ? make(scaled) : undefined
}

/** The wire form of a rate: a string such as "1.1234567890"; decoding checks it parses. */
export const ExchangeRateString = Schema.String.check(
  Schema.makeFilter((s: string) => parseExchangeRate(s) !== undefined, {
    expected: "a positive decimal with at most 10 decimal places",
    message: `must be a positive decimal number with at most ${SCALE} decimal places`
  })
).pipe(Schema.brand("ExchangeRateString")).annotate({ identifier: "ExchangeRateString" })
export type ExchangeRateString = typeof ExchangeRateString.Type

/** A decoded rate string as a rate (cannot fail: the Schema has checked it). */
export const exchangeRateOf = (s: ExchangeRateString): ExchangeRate => {
  const rate = parseExchangeRate(s)
  if (rate === undefined) throw new RangeError(`not an exchange rate: ${s}`)
  return rate
}

/** A rate from its numerator over 10^10 (internal construction, e.g. from a rate feed). */
export const exchangeRateFromScaled = (scaled: bigint): ExchangeRate | undefined =>
  scaled > 0n ? make(scaled) : undefined

export const EXCHANGE_RATE_ONE: ExchangeRate = make(DENOMINATOR)

/**
 * Renders a rate with exactly 10 decimal places ("1.1234567890", "1.0000000000"), the form of
 * the API's samples; `parseExchangeRate(renderExchangeRate(r))` is `r`.
 */
export const renderExchangeRate = (rate: ExchangeRate): ExchangeRateString =>
  renderFixed(rate.scaled, SCALE) as ExchangeRateString

/** Rates compare exactly. */
export const exchangeRateEquals = (a: ExchangeRate, b: ExchangeRate): boolean => a.scaled === b.scaled

/** The reason when a converted amount would not fit a safe integer. */
export const FX_AMOUNT_OUT_OF_RANGE = "fx_amount_out_of_range"

/** `amount x rate` in exact arithmetic, rounded half to even to a whole minor unit. */
export const convertMinorUnitsBig = (amount: bigint, rate: ExchangeRate): bigint =>
  divRoundHalfEven(amount * rate.scaled, DENOMINATOR)

/**
 * Converts a (signed) minor-unit amount at a rate, rounding half to even once. Fails only when
 * the result would pass 2^53 - 1, which an amount and a real currency rate never reach.
 */
export const convertMinorUnits = (amount: number, rate: ExchangeRate): Result.Result<number, InvalidState> => {
  const converted = convertMinorUnitsBig(BigInt(amount), rate)
  return isSafeBigInt(converted)
    ? Result.succeed(Number(converted))
    : Result.fail(new InvalidState({
      reason: FX_AMOUNT_OUT_OF_RANGE,
      message: `converting ${amount} at ${renderExchangeRate(rate)} gives more than 2^53 - 1 minor units`
    }))
}
