import type { Currency, MandateScheme, SchemeIdentifierScheme } from "@paykit/core"
import type { Creditor } from "./domain/creditors.ts"

/**
 * The scheme identifiers a new creditor is given, by its country: the engine is its own scheme
 * operator here, as GoCardless is for creditors on its shared identifiers. `minimum_advance_notice`
 * is the working days between the payer's pre-notification and the charge date.
 */
export interface SchemeIdentifierTemplate {
  readonly scheme: SchemeIdentifierScheme
  readonly currency: Currency
  readonly minimum_advance_notice: number
}

const EUROZONE = [
  "AT", "BE", "CY", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PT", "SI", "SK"
] as const

const BY_COUNTRY: Readonly<Record<string, ReadonlyArray<SchemeIdentifierTemplate>>> = {
  GB: [
    { scheme: "bacs", currency: "GBP", minimum_advance_notice: 3 },
    { scheme: "faster_payments", currency: "GBP", minimum_advance_notice: 0 }
  ],
  SE: [{ scheme: "autogiro", currency: "SEK", minimum_advance_notice: 8 }],
  DK: [{ scheme: "betalingsservice", currency: "DKK", minimum_advance_notice: 8 }],
  US: [{ scheme: "ach", currency: "USD", minimum_advance_notice: 3 }],
  CA: [{ scheme: "pad", currency: "CAD", minimum_advance_notice: 3 }],
  AU: [{ scheme: "becs", currency: "AUD", minimum_advance_notice: 2 }, { scheme: "pay_to", currency: "AUD", minimum_advance_notice: 0 }],
  NZ: [{ scheme: "becs_nz", currency: "NZD", minimum_advance_notice: 2 }]
}

const SEPA: ReadonlyArray<SchemeIdentifierTemplate> = [
  { scheme: "sepa", currency: "EUR", minimum_advance_notice: 3 },
  { scheme: "sepa_credit_transfer", currency: "EUR", minimum_advance_notice: 0 },
  { scheme: "sepa_instant_credit_transfer", currency: "EUR", minimum_advance_notice: 0 }
]

export const schemeIdentifierTemplates = (countryCode: string): ReadonlyArray<SchemeIdentifierTemplate> =>
  (EUROZONE as ReadonlyArray<string>).includes(countryCode) ? SEPA : BY_COUNTRY[countryCode] ?? []

/** The scheme identifier scheme a mandate scheme collects under. */
export const identifierSchemeOf = (scheme: MandateScheme): SchemeIdentifierScheme => (scheme === "sepa_core" ? "sepa" : scheme)

/**
 * Why a creditor cannot collect on a mandate scheme, or undefined when it can: it needs an active
 * scheme identifier for it (GoCardless refuses a mandate, or a billing request's mandate request,
 * on a scheme the creditor is not set up for). Checked when a mandate or mandate request is made,
 * so nothing the daily run does later meets a creditor without the scheme.
 */
export const schemeRefusal = (creditor: Creditor, scheme: MandateScheme): string | undefined => {
  const active = creditor.scheme_identifiers.filter((s) => s.status === "active").map((s) => s.scheme)
  if (active.includes(identifierSchemeOf(scheme))) return undefined
  return `must be a scheme the creditor has an active scheme identifier for (${active.length === 0 ? "it has none" : active.join(", ")})`
}

/** The notice a scheme needs when the creditor has no identifier of its own for it. */
export const DEFAULT_MINIMUM_ADVANCE_NOTICE = 3

const EUROZONE_SET: ReadonlySet<string> = new Set(EUROZONE)
export const isEurozone = (countryCode: string): boolean => EUROZONE_SET.has(countryCode)

/** The local currency of a country, for bank accounts created without one. */
export const currencyOfCountry = (countryCode: string): Currency | undefined => {
  if (isEurozone(countryCode)) return "EUR"
  const table: Readonly<Record<string, Currency>> = { GB: "GBP", SE: "SEK", DK: "DKK", US: "USD", CA: "CAD", AU: "AUD", NZ: "NZD" }
  return table[countryCode]
}

/**
 * The currency and notice of an identifier of `scheme`, whatever the creditor's country: the
 * templates above, where each scheme appears with one currency and one notice.
 */
export const schemeIdentifierTemplateOf = (scheme: SchemeIdentifierScheme): SchemeIdentifierTemplate | undefined =>
  [...Object.values(BY_COUNTRY).flat(), ...SEPA].find((t) => t.scheme === scheme)
