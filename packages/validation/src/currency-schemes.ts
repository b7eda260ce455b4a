import { type Currency, type MandateScheme, SCHEME_CURRENCY } from "@paykit/core"

/**
 * The debit schemes a mandate in each currency can be on (spec: billing request `mandate_request`).
 * GBP mandates run on Bacs or, for variable recurring payments, on Faster Payments; AUD ones on
 * BECS or PayTo.
 */
export const MANDATE_SCHEMES_BY_CURRENCY: Readonly<Record<Currency, ReadonlyArray<MandateScheme>>> = {
  AUD: ["becs", "pay_to"],
  CAD: ["pad"],
  DKK: ["betalingsservice"],
  EUR: ["sepa_core"],
  GBP: ["bacs", "faster_payments"],
  NZD: ["becs_nz"],
  SEK: ["autogiro"],
  USD: ["ach"]
}

/** The one currency of each mandate scheme (the inverse of the table above). */
export const CURRENCY_OF_MANDATE_SCHEME: Readonly<Record<MandateScheme, Currency>> = SCHEME_CURRENCY

export const isMandateSchemeOfCurrency = (scheme: MandateScheme, currency: Currency): boolean =>
  MANDATE_SCHEMES_BY_CURRENCY[currency].includes(scheme)

/** Instant payment requests: GBP over Faster Payments, EUR over SEPA credit transfers. */
export const PAYMENT_REQUEST_CURRENCIES = ["GBP", "EUR"] as const
export type PaymentRequestCurrency = (typeof PAYMENT_REQUEST_CURRENCIES)[number]

export const PAYMENT_REQUEST_SCHEMES = ["faster_payments", "sepa_credit_transfer", "sepa_instant_credit_transfer"] as const
export type PaymentRequestScheme = (typeof PAYMENT_REQUEST_SCHEMES)[number]

export const PAYMENT_REQUEST_SCHEMES_BY_CURRENCY: Readonly<Record<PaymentRequestCurrency, ReadonlyArray<PaymentRequestScheme>>> = {
  GBP: ["faster_payments"],
  EUR: ["sepa_credit_transfer", "sepa_instant_credit_transfer"]
}

/** The scheme a payment request gets when none is given (spec: SEPA credit transfer is EUR's default). */
export const DEFAULT_PAYMENT_REQUEST_SCHEME: Readonly<Record<PaymentRequestCurrency, PaymentRequestScheme>> = {
  GBP: "faster_payments",
  EUR: "sepa_credit_transfer"
}

/** Schemes whose billing requests may carry `subscription_request` or `instalment_schedule_request`. */
export const RECURRING_REQUEST_SCHEMES: ReadonlyArray<MandateScheme> = ["ach", "pad"]
