import type { MandateScheme } from "@paykit/core"
import { debitSchemesOfCountry } from "@paykit/validation"

/**
 * Mandate schemes that are not direct debits, by the country of the account they pay from: a
 * GB account can authorise variable recurring payments over Faster Payments, an AU one PayTo
 * agreements. The bank details lookup's `available_debit_schemes` leaves them out because they
 * are not debits, yet a mandate can be on them.
 */
const NON_DEBIT_MANDATE_SCHEMES: Readonly<Record<string, ReadonlyArray<MandateScheme>>> = {
  GB: ["faster_payments"],
  AU: ["pay_to"]
}

/**
 * The schemes a mandate on an account in `countryCode` can use: its `available_debit_schemes`
 * (@paykit/validation, the same list a bank details lookup answers), first the default, then
 * the non-debit mandate schemes of that country. Empty for a country no scheme reaches.
 */
export const mandateSchemesOfAccount = (countryCode: string | null): ReadonlyArray<MandateScheme> =>
  countryCode === null ? [] : [...debitSchemesOfCountry(countryCode), ...(NON_DEBIT_MANDATE_SCHEMES[countryCode] ?? [])]
