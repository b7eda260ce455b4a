import { type CountryCode, type Currency, LocalDate, unsafeLocalDate } from "@paykit/core"
import { Schema } from "effect"
import { type Decimal, parseDecimal } from "./decimal.ts"
import { divRoundHalfEven } from "./rounding.ts"

/**
 * Tax rates on the service's fees (the `/tax_rates` resource). Tax is charged on fees only, for
 * merchants whose `country_code` is GB or FR, at the rate in force on the day the fee is charged.
 */

/** A tax percentage as the API writes it: a decimal string such as "20.0" or "17.5". */
const TAX_PERCENTAGE = /^\d{1,3}(\.\d{1,4})?$/

export const TaxRate = Schema.Struct({
  /** Jurisdiction, tax type and version: `GB_VAT_4`. */
  id: Schema.String,
  jurisdiction: Schema.String,
  type: Schema.String,
  percentage: Schema.String.check(Schema.isPattern(TAX_PERCENTAGE)),
  start_date: LocalDate,
  end_date: Schema.NullOr(LocalDate)
}).annotate({ identifier: "TaxRate" })
export type TaxRate = typeof TaxRate.Type

/** Jurisdictions whose tax this implementation charges on fees. */
export const TAX_JURISDICTIONS = ["GB", "FR"] as const
export type TaxJurisdiction = (typeof TAX_JURISDICTIONS)[number]

/** The currency each jurisdiction's tax authority is paid in (a payout's `tax_currency`). */
export const TAX_CURRENCY: Readonly<Record<TaxJurisdiction, Currency>> = { GB: "GBP", FR: "EUR" }

/** The tax jurisdiction of a creditor from its `country_code`; null where no tax is charged on fees. */
export const taxJurisdictionOf = (country: CountryCode | null): TaxJurisdiction | null =>
  country === "GB" || country === "FR" ? country : null

const rate = (
  jurisdiction: TaxJurisdiction,
  version: number,
  percentage: string,
  start: string,
  end: string | null
): TaxRate => ({
  id: `${jurisdiction}_VAT_${version}`,
  jurisdiction,
  type: "VAT",
  percentage,
  start_date: unsafeLocalDate(start),
  end_date: end === null ? null : unsafeLocalDate(end)
})

/**
 * Standard rates with their history, one version per change, oldest first. Both are value added
 * taxes (France's TVA is its VAT), so both have the type "VAT" and ids `GB_VAT_n`, `FR_VAT_n`.
 * The first versions start when that standard rate took effect (GB 17.5% on 1991-04-01, FR 19.6%
 * on 1995-08-01); end dates are inclusive and each version starts the day after the previous ends.
 */
export const TAX_RATES: ReadonlyArray<TaxRate> = [
  rate("GB", 1, "17.5", "1991-04-01", "2008-11-30"),
  rate("GB", 2, "15.0", "2008-12-01", "2009-12-31"),
  rate("GB", 3, "17.5", "2010-01-01", "2011-01-03"),
  rate("GB", 4, "20.0", "2011-01-04", null),
  rate("FR", 1, "19.6", "1995-08-01", "2013-12-31"),
  rate("FR", 2, "20.0", "2014-01-01", null)
]

/** All rates, or those of one jurisdiction (the `jurisdiction` filter of `GET /tax_rates`), in id order. */
export const listTaxRates = (
  filter: { readonly jurisdiction?: string } = {},
  rates: ReadonlyArray<TaxRate> = TAX_RATES
): ReadonlyArray<TaxRate> =>
  rates
    .filter((r) => filter.jurisdiction === undefined || r.jurisdiction === filter.jurisdiction)
    .toSorted((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

export const taxRateById = (id: string, rates: ReadonlyArray<TaxRate> = TAX_RATES): TaxRate | undefined =>
  rates.find((r) => r.id === id)

/** Whether a rate applies on a date: start and end dates are both inclusive. */
export const isInForce = (r: TaxRate, date: LocalDate): boolean =>
  r.start_date <= date && (r.end_date === null || date <= r.end_date)

/** The rate of a jurisdiction in force on a date; undefined before its first rate or for an unknown one. */
export const taxRateInForce = (
  jurisdiction: string,
  date: LocalDate,
  rates: ReadonlyArray<TaxRate> = TAX_RATES
): TaxRate | undefined => rates.find((r) => r.jurisdiction === jurisdiction && isInForce(r, date))

/** The percentage as an exact decimal (the Schema guarantees it parses). */
export const taxPercentage = (r: TaxRate): Decimal => {
  const d = parseDecimal(r.percentage, 4)
  if (d === undefined) throw new RangeError(`tax rate ${r.id} has a malformed percentage ${r.percentage}`)
  return d
}

/**
 * Tax on a fee: `fee x percentage / 100`, rounded half to even to a whole minor unit. Signed, so
 * the tax refunded with a refunded fee is the exact mirror of the tax charged with it.
 */
export const taxOnFee = (fee: number, r: TaxRate): number => {
  const p = taxPercentage(r)
  return Number(divRoundHalfEven(BigInt(fee) * p.units, 100n * 10n ** BigInt(p.scale)))
}
