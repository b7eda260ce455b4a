/**
 * The one rounding rule of the package: round half to even ("banker's rounding"), applied once,
 * at the end of each exact computation, to get back to whole minor units.
 *
 * Half-even is chosen over half-up because payouts sum many rounded values (fees, tax, FX
 * conversions): half-up biases every tie the same way, half-even cancels ties out on average.
 * It is symmetric, so -x rounds to -(x rounded), which keeps refunds of fees the exact mirror
 * of the fees charged.
 */

/** `numerator / denominator` rounded half to even; `denominator` must be positive. */
export const divRoundHalfEven = (numerator: bigint, denominator: bigint): bigint => {
  if (denominator <= 0n) throw new RangeError("denominator must be positive")
  // Floor division first (BigInt division truncates toward zero, which is wrong for negatives).
  let quotient = numerator / denominator
  let remainder = numerator % denominator
  if (remainder < 0n) {
    quotient -= 1n
    remainder += denominator
  }
  const twice = remainder * 2n
  if (twice > denominator) return quotient + 1n
  if (twice < denominator) return quotient
  return quotient % 2n === 0n ? quotient : quotient + 1n
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** Whether a bigint fits a JavaScript number exactly (|n| <= 2^53 - 1). */
export const isSafeBigInt = (n: bigint): boolean => n <= MAX_SAFE && n >= -MAX_SAFE

/** A bigint already known to be in the safe range, as a number. */
export const toSafeNumber = (n: bigint): number => {
  if (!isSafeBigInt(n)) throw new RangeError(`${n} is outside the safe integer range`)
  return Number(n)
}

/** Sum of minor-unit numbers, exact whatever the count (a sum of safe integers can pass 2^53). */
export const sumBig = (values: ReadonlyArray<number | bigint>): bigint =>
  values.reduce<bigint>((acc, v) => acc + BigInt(v), 0n)
