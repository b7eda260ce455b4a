import type { Currency, MandateScheme } from "@paykit/core"

/**
 * Which currency an account in each country holds and which debit schemes can collect from it,
 * as the bank details lookup's `available_debit_schemes` reports. Countries outside this table
 * have no debit scheme (an empty list).
 */

/** The euro area on 2026-11-21 (Bulgaria joined on 2026-01-01), plus the microstates that use the euro under agreements and take part in SEPA. */
export const EURO_COUNTRIES = [
  "AT", "BE", "BG", "CY", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PT", "SI", "SK",
  "AD", "MC", "SM", "VA"
] as const

const euroCountries: ReadonlySet<string> = new Set(EURO_COUNTRIES)

const NATIONAL: Readonly<Record<string, { readonly currency: Currency; readonly schemes: ReadonlyArray<MandateScheme> }>> = {
  GB: { currency: "GBP", schemes: ["bacs"] },
  SE: { currency: "SEK", schemes: ["autogiro"] },
  DK: { currency: "DKK", schemes: ["betalingsservice"] },
  AU: { currency: "AUD", schemes: ["becs"] },
  NZ: { currency: "NZD", schemes: ["becs_nz"] },
  CA: { currency: "CAD", schemes: ["pad"] },
  US: { currency: "USD", schemes: ["ach"] }
}

export const currencyOfCountry = (countryCode: string): Currency | null =>
  euroCountries.has(countryCode) ? "EUR" : (NATIONAL[countryCode]?.currency ?? null)

export const debitSchemesOfCountry = (countryCode: string): ReadonlyArray<MandateScheme> =>
  euroCountries.has(countryCode) ? ["sepa_core"] : (NATIONAL[countryCode]?.schemes ?? [])
