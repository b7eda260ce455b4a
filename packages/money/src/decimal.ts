/**
 * Exact decimals as a bigint count of units of 10^-scale. Tax percentages ("20.0") and exchange
 * rates ("1.1234567890") are parsed from their strings digit by digit, never through a float.
 */

export interface Decimal {
  /** The value times 10^scale. */
  readonly units: bigint
  readonly scale: number
}

const UNSIGNED_DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** Parses a non-negative decimal with at most `maxScale` decimal places; undefined otherwise. */
export const parseDecimal = (s: string, maxScale: number): Decimal | undefined => {
  const m = UNSIGNED_DECIMAL.exec(s)
  if (m === null) return undefined
  const whole = m[1] ?? "0"
  const fraction = m[2] ?? ""
  if (fraction.length > maxScale) return undefined
  return { units: BigInt(whole + fraction), scale: fraction.length }
}

/** The same value at a larger scale (exact). */
export const rescale = (d: Decimal, scale: number): bigint => {
  if (scale < d.scale) throw new RangeError("rescale can only add decimal places")
  return d.units * 10n ** BigInt(scale - d.scale)
}

/** Renders `units / 10^scale` with exactly `scale` decimal places (at least one digit before the point). */
export const renderFixed = (units: bigint, scale: number): string => {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0")
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale)
  return `${negative ? "-" : ""}${whole}${scale > 0 ? `.${fraction}` : ""}`
}
