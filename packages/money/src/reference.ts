import { FASTER_PAYMENTS_REFERENCE_MAX_LENGTH } from "@paykit/core"
import { Schema } from "effect"

/**
 * Payout references: `<PREFIX>-<suffix>`, where the prefix is the creditor's
 * `bank_reference_prefix` and the suffix is 5 Crockford base32 characters made from the
 * creditor's payout sequence number (0, 1, 2...). The whole reference fits the 18 characters of
 * a Faster Payments / Bacs reference, which fixes the prefix at 1 to 12 characters.
 */

/** Suffix characters: 32^5 = 33,554,432 distinct payouts per creditor before a suffix repeats. */
export const PAYOUT_REFERENCE_SUFFIX_LENGTH = 5
/** Longest prefix such that prefix, "-" and suffix fit a bank reference. */
export const BANK_REFERENCE_PREFIX_MAX_LENGTH = FASTER_PAYMENTS_REFERENCE_MAX_LENGTH - 1 - PAYOUT_REFERENCE_SUFFIX_LENGTH
/** Payout sequence numbers run from 0 to this (inclusive). */
export const PAYOUT_REFERENCE_SEQUENCE_MAX = 32 ** PAYOUT_REFERENCE_SUFFIX_LENGTH - 1

const PREFIX_PATTERN = new RegExp(`^[A-Z0-9]{1,${BANK_REFERENCE_PREFIX_MAX_LENGTH}}$`)

/** A `bank_reference_prefix`: 1 to 12 upper-case letters and digits (safe on every scheme's statement). */
export const BankReferencePrefix = Schema.String.check(
  Schema.makeFilter((s: string) => PREFIX_PATTERN.test(s), {
    expected: "1 to 12 upper-case letters and digits",
    message: `must be 1 to ${BANK_REFERENCE_PREFIX_MAX_LENGTH} upper-case letters and digits`
  })
).pipe(Schema.brand("BankReferencePrefix")).annotate({ identifier: "BankReferencePrefix" })
export type BankReferencePrefix = typeof BankReferencePrefix.Type

export const PayoutReferenceSequence = Schema.Int.check(
  Schema.isBetween({ minimum: 0, maximum: PAYOUT_REFERENCE_SEQUENCE_MAX })
).annotate({ identifier: "PayoutReferenceSequence" })

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const BITS = 5 * PAYOUT_REFERENCE_SUFFIX_LENGTH
const MODULUS = 2 ** BITS
// Odd multipliers are invertible modulo 2^25 and xor with a right shift is invertible, so the
// scramble is a bijection: consecutive payouts get unrelated-looking but never equal suffixes.
const MULTIPLIER_A = 0x1b873593 % MODULUS | 1
const MULTIPLIER_B = 0x0cc9e2d5 % MODULUS | 1

const mulMod = (a: number, b: number): number => Number((BigInt(a) * BigInt(b)) % BigInt(MODULUS))

export const scrambleSequence = (sequence: number): number => {
  let x = mulMod(sequence, MULTIPLIER_A)
  x ^= x >>> 13
  x = mulMod(x, MULTIPLIER_B)
  x ^= x >>> 11
  return x
}

/** The suffix of payout number `sequence` (0 <= sequence <= PAYOUT_REFERENCE_SEQUENCE_MAX). */
export const payoutReferenceSuffix = (sequence: number): string => {
  let x = scrambleSequence(sequence)
  let out = ""
  for (let i = 0; i < PAYOUT_REFERENCE_SUFFIX_LENGTH; i++) {
    out = CROCKFORD.charAt(x % 32) + out
    x = Math.floor(x / 32)
  }
  return out
}

/** `<PREFIX>-<suffix>` for the creditor's payout number `sequence`. */
export const payoutReference = (prefix: BankReferencePrefix, sequence: number): string =>
  `${prefix}-${payoutReferenceSuffix(sequence)}`
