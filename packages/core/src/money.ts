import { Schema, SchemaGetter } from "effect"

/** ISO 4217 codes the service supports on most resources (spec: Conventions). */
export const CURRENCIES = ["AUD", "CAD", "DKK", "EUR", "GBP", "NZD", "SEK", "USD"] as const
export const Currency = Schema.Literals(CURRENCIES).annotate({ identifier: "Currency" })
export type Currency = typeof Currency.Type

/** Outbound payments and their imports support only GBP. */
export const OUTBOUND_CURRENCIES = ["GBP"] as const
export const OutboundCurrency = Schema.Literals(OUTBOUND_CURRENCIES).annotate({ identifier: "OutboundCurrency" })
export type OutboundCurrency = typeof OutboundCurrency.Type

export const isCurrency = (u: unknown): u is Currency => typeof u === "string" && (CURRENCIES as ReadonlyArray<string>).includes(u)

const DIGITS = /^\d+$/

const AMOUNT_MESSAGE = "must be a whole number of the currency's minor unit (e.g. pence), from 0 to 2^53 - 1"

const isAmountValue = (n: number): boolean => Number.isSafeInteger(n) && n >= 0

/**
 * A non-negative amount in minor units. The spec types amounts `string | integer`: both "1500"
 * and 1500 decode to 1500; a fraction, a negative, NaN, a number past 2^53 - 1 or any other
 * text is a validation error at the field. Amounts encode back to integers.
 */
export const Amount = Schema.Union([Schema.Number, Schema.String])
  .pipe(
    Schema.decodeTo(
      Schema.Number.check(Schema.makeFilter(isAmountValue, {
      message: AMOUNT_MESSAGE,
      expected: "amount",
      // Derived arbitraries build whole numbers in range rather than filter random doubles.
      arbitraryConstraint: { number: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER }
    })),
      {
        decode: SchemaGetter.transform((u: number | string) => (typeof u === "number" ? u : DIGITS.test(u) ? Number(u) : Number.NaN)),
        encode: SchemaGetter.transform((n: number) => n)
      }
    )
  )
  .pipe(Schema.brand("Amount"))
  .annotate({ identifier: "Amount" })
export type Amount = typeof Amount.Type

/**
 * An amount greater than zero: what a payment, a subscription or a billing request's payment
 * charges. Only zero is left to reject (anything below 1 already fails `Amount`'s own check, and
 * one field should carry one message).
 */
export const PositiveAmount = Amount.check(
  Schema.makeFilter((n: number) => n !== 0, { message: "must be greater than 0" })
).annotate({ identifier: "PositiveAmount" })

/** Trusted internal construction of an amount (sums of already decoded amounts). */
export const unsafeAmount = (n: number): Amount => {
  if (!isAmountValue(n)) throw new RangeError(`not an amount: ${n}`)
  return n as Amount
}

/** A signed amount in minor units (balances, payout items, deducted fees may be negative). */
export const SignedAmount = Schema.Union([Schema.Number, Schema.String])
  .pipe(
    Schema.decodeTo(
      Schema.Number.check(
        Schema.makeFilter((n: number) => Number.isSafeInteger(n), { message: "must be a whole number of the currency's minor unit" })
      ),
      {
        decode: SchemaGetter.transform((u: number | string) => (typeof u === "number" ? u : /^-?\d+$/.test(u) ? Number(u) : Number.NaN)),
        encode: SchemaGetter.transform((n: number) => n)
      }
    )
  )
  .annotate({ identifier: "SignedAmount" })

/** Minor-unit exponent per currency: every supported currency has two decimal places. */
export const MINOR_UNIT_DIGITS: Readonly<Record<Currency, number>> = {
  AUD: 2, CAD: 2, DKK: 2, EUR: 2, GBP: 2, NZD: 2, SEK: 2, USD: 2
}

/** Renders minor units as a decimal string in major units ("1500" GBP -> "15.00"), for people. */
export const formatMinorUnits = (amount: number, currency: Currency): string => {
  const digits = MINOR_UNIT_DIGITS[currency]
  const sign = amount < 0 ? "-" : ""
  const abs = `${Math.abs(amount)}`.padStart(digits + 1, "0")
  return `${sign}${abs.slice(0, abs.length - digits)}.${abs.slice(abs.length - digits)}`
}
