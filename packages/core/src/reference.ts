import { Schema } from "effect"
import { FASTER_PAYMENTS_REFERENCE_MAX_LENGTH } from "./limits.ts"

/** Faster Payments references: A-Z, a-z, 0-9, space, `&`, `-`, `.`, `/`. */
export const FASTER_PAYMENTS_REFERENCE_CHARSET = /^[A-Za-z0-9 &\-./]*$/

export const isFasterPaymentsReference = (s: string): boolean =>
  s.length <= FASTER_PAYMENTS_REFERENCE_MAX_LENGTH && FASTER_PAYMENTS_REFERENCE_CHARSET.test(s)

export const FasterPaymentsReference = Schema.String.check(
  Schema.makeFilter((s: string) => s.length <= FASTER_PAYMENTS_REFERENCE_MAX_LENGTH, {
    message: `must be at most ${FASTER_PAYMENTS_REFERENCE_MAX_LENGTH} characters`
  }),
  Schema.makeFilter((s: string) => FASTER_PAYMENTS_REFERENCE_CHARSET.test(s), {
    message: "may contain only the characters A-Z, a-z, 0-9, space, &, -, . and /"
  })
).annotate({ identifier: "FasterPaymentsReference" })
export type FasterPaymentsReference = typeof FasterPaymentsReference.Type
