import { Schema } from "effect"
import type { Currency } from "./money.ts"

/** Debit schemes a mandate can be on (billing request `mandate_request.scheme`, payer authorisations). */
export const MANDATE_SCHEMES = [
  "ach", "autogiro", "bacs", "becs", "becs_nz", "betalingsservice", "faster_payments", "pad", "pay_to", "sepa_core"
] as const
export const MandateScheme = Schema.Literals(MANDATE_SCHEMES).annotate({ identifier: "MandateScheme" })
export type MandateScheme = typeof MandateScheme.Type

/** Schemes of a creditor's scheme identifiers. */
export const SCHEME_IDENTIFIER_SCHEMES = [
  "ach", "autogiro", "bacs", "becs", "becs_nz", "betalingsservice", "faster_payments", "pad", "pay_to",
  "sepa", "sepa_credit_transfer", "sepa_instant_credit_transfer"
] as const
export const SchemeIdentifierScheme = Schema.Literals(SCHEME_IDENTIFIER_SCHEMES).annotate({ identifier: "SchemeIdentifierScheme" })
export type SchemeIdentifierScheme = typeof SchemeIdentifierScheme.Type

/** Every scheme name that appears anywhere in the API (payments add the SEPA credit transfers). */
export const SCHEMES = [...new Set<string>([...MANDATE_SCHEMES, ...SCHEME_IDENTIFIER_SCHEMES])] as ReadonlyArray<
  MandateScheme | SchemeIdentifierScheme
>
export type Scheme = MandateScheme | SchemeIdentifierScheme
export const isScheme = (u: unknown): u is Scheme => typeof u === "string" && (SCHEMES as ReadonlyArray<string>).includes(u)

/**
 * The one currency each scheme that moves money collects or pays in: the single table behind
 * fees, mandate currencies and payment checks.
 */
export const SCHEME_CURRENCY = {
  ach: "USD",
  autogiro: "SEK",
  bacs: "GBP",
  becs: "AUD",
  becs_nz: "NZD",
  betalingsservice: "DKK",
  faster_payments: "GBP",
  pad: "CAD",
  pay_to: "AUD",
  sepa_core: "EUR",
  sepa_credit_transfer: "EUR",
  sepa_instant_credit_transfer: "EUR"
} as const satisfies Record<Exclude<Scheme, "sepa">, Currency>
