import { Schema } from "effect"
import { INTERVAL_UNITS } from "@paykit/schedule"
import {
  ADDRESS_FIELD_MAX_LENGTH,
  CountryCode,
  type Currency,
  decodeInput,
  IdOf,
  InputDate,
  MANDATE_PDF_ACCOUNT_HOLDER_NAME_MAX_LENGTH,
  MANDATE_PDF_REFERENCE_MAX_LENGTH,
  MANDATE_PDF_REFERENCE_MIN_LENGTH,
  type MandateScheme,
  MandateScheme as MandateSchemeSchema,
  NAME_MAX_LENGTH
} from "@paykit/core"
import { accountTypeIssues, ACCOUNT_TYPES, resolveBankDetails } from "./bank-details/bank-account.ts"
import { checkBic } from "./bank-details/iban.ts"
import { CURRENCY_OF_MANDATE_SCHEME } from "./currency-schemes.ts"
import { IpAddress, optionalNullable, PhoneNumber, plainTextUpTo, PositiveAmount } from "./fields.ts"
import { type RuleIssue, issue, withRules } from "./rules.ts"

/** POST /mandate_pdfs: the body under `mandate_pdfs`. */
export const MANDATE_PDFS = "mandate_pdfs"

/** `subscription_frequency` takes a subscription's interval units. */
export const SUBSCRIPTION_FREQUENCIES = INTERVAL_UNITS

/** Blank, or 6 to 18 characters, on one line. */
export const MandatePdfReference = plainTextUpTo(MANDATE_PDF_REFERENCE_MAX_LENGTH).check(
  Schema.makeFilter(
    (s: string) => s.length === 0 || s.length >= MANDATE_PDF_REFERENCE_MIN_LENGTH,
    { message: `must be ${MANDATE_PDF_REFERENCE_MIN_LENGTH} to ${MANDATE_PDF_REFERENCE_MAX_LENGTH} characters, or blank` }
  )
)

/** A Swedish personnummer or organisationsnummer: 10 or 12 digits, a `-` or `+` allowed before the last four. */
export const SwedishIdentityNumber = Schema.String.check(
  Schema.makeFilter((s: string) => /^(?:\d{2})?\d{6}[-+]?\d{4}$/.test(s), { message: "must be a personal or organisation number of 10 or 12 digits" })
)

/** A Danish CPR number: 10 digits, a `-` allowed after the date. */
export const DanishIdentityNumber = Schema.String.check(
  Schema.makeFilter((s: string) => /^\d{6}-?\d{4}$/.test(s), { message: "must be a CPR number of 10 digits" })
)

/** Text the form draws: as long as the customer's fields may be, on one line. */
const PdfName = optionalNullable(plainTextUpTo(NAME_MAX_LENGTH))
const PdfAddressField = optionalNullable(plainTextUpTo(ADDRESS_FIELD_MAX_LENGTH))

export const MandatePdfFields = Schema.Struct({
  scheme: optionalNullable(MandateSchemeSchema),
  country_code: optionalNullable(CountryCode),
  iban: optionalNullable(Schema.String),
  bic: optionalNullable(Schema.String),
  account_number: optionalNullable(Schema.String),
  bank_code: optionalNullable(Schema.String),
  branch_code: optionalNullable(Schema.String),
  account_holder_name: optionalNullable(plainTextUpTo(MANDATE_PDF_ACCOUNT_HOLDER_NAME_MAX_LENGTH)),
  given_name: PdfName,
  family_name: PdfName,
  company_name: PdfName,
  mandate_reference: optionalNullable(MandatePdfReference),
  signature_date: optionalNullable(InputDate),
  phone_number: optionalNullable(PhoneNumber),
  swedish_identity_number: optionalNullable(SwedishIdentityNumber),
  danish_identity_number: optionalNullable(DanishIdentityNumber),
  address_line1: PdfAddressField,
  address_line2: PdfAddressField,
  address_line3: PdfAddressField,
  city: PdfAddressField,
  region: PdfAddressField,
  postal_code: PdfAddressField,
  account_type: optionalNullable(Schema.Literals(ACCOUNT_TYPES)),
  payer_ip_address: optionalNullable(IpAddress),
  subscription_amount: optionalNullable(PositiveAmount),
  subscription_frequency: optionalNullable(Schema.Literals(SUBSCRIPTION_FREQUENCIES)),
  links: Schema.optionalKey(
    Schema.Struct({
      mandate: optionalNullable(IdOf("mandate")),
      creditor: optionalNullable(IdOf("creditor"))
    })
  )
}).annotate({ identifier: "MandatePdfCreate" })
export type MandatePdfRequest = typeof MandatePdfFields.Type

export const MANDATE_AND_DETAILS_MESSAGE = "Cannot provide both a mandate and other details"

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== ""

/** The schemes that have a mandate form (a PDF): every debit scheme but the instant ones, which mandate by consent online. */
export const MANDATE_PDF_SCHEMES = ["ach", "autogiro", "bacs", "becs", "becs_nz", "betalingsservice", "pad", "sepa_core"] as const satisfies ReadonlyArray<MandateScheme>
export type MandatePdfScheme = (typeof MANDATE_PDF_SCHEMES)[number]
export const isMandatePdfScheme = (s: string): s is MandatePdfScheme => (MANDATE_PDF_SCHEMES as ReadonlyArray<string>).includes(s)

/**
 * The scheme of a request's form: the one given, else the only debit scheme of the account's
 * country (every country paykit reaches has one). Undefined when neither says.
 */
export const mandatePdfSchemeOf = (r: MandatePdfRequest): MandateScheme | undefined => {
  if (r.scheme !== undefined && r.scheme !== null) return r.scheme
  if (!given(r.iban) && !given(r.account_number) && !given(r.bank_code) && !given(r.branch_code)) return undefined
  const resolution = resolveBankDetails(r)
  return resolution.valid && resolution.account.available_debit_schemes.length === 1 ? resolution.account.available_debit_schemes[0] : undefined
}

/** Fields only one scheme's mandate form has. */
const SCHEME_ONLY_FIELDS: ReadonlyArray<readonly [keyof MandatePdfRequest, MandateScheme, string]> = [
  ["phone_number", "becs_nz", "BECS NZ"],
  ["swedish_identity_number", "autogiro", "Autogiro"],
  ["danish_identity_number", "betalingsservice", "Betalingsservice"]
]

/** The names of every other field given beside `links.mandate` (spec rule 3). */
export const detailsBesideMandate = (r: MandatePdfRequest): ReadonlyArray<string> => [
  ...Object.entries(r).filter(([key, value]) => key !== "links" && given(value)).map(([key]) => key),
  ...(given(r.links?.creditor) ? ["links.creditor"] : [])
]

/** Every cross-field rule of a mandate PDF request; paths relative to `mandate_pdfs`. */
export const mandatePdfIssues = (r: MandatePdfRequest): ReadonlyArray<RuleIssue> => {
  // Rule 3: a mandate's details come from the mandate, and "no other parameter may accompany it".
  if (given(r.links?.mandate)) {
    return detailsBesideMandate(r).length > 0 ? [issue(["links", "mandate"], MANDATE_AND_DETAILS_MESSAGE)] : []
  }
  const issues: Array<RuleIssue> = []
  const hasLocal = given(r.account_number) || given(r.bank_code) || given(r.branch_code)
  const scheme: MandateScheme | undefined = r.scheme ?? undefined
  if (scheme !== undefined && !isMandatePdfScheme(scheme)) issues.push(issue(["scheme"], `has no mandate form; use one of ${MANDATE_PDF_SCHEMES.join(", ")}`))

  // Rule 2: without a scheme the form needs a mandate, an iban, or local details with a country.
  if (scheme === undefined && !given(r.iban) && !(hasLocal && given(r.country_code))) {
    issues.push(issue(["scheme"], "is required unless a mandate, an iban, or local bank details with country_code are given"))
  }
  if (given(r.bic)) {
    const bic = checkBic(r.bic ?? "")
    if (!bic.valid) issues.push(...bic.messages.map((m) => issue(["bic"], m)))
  }

  // Bank details, when given, must be a valid account reachable on the scheme.
  let currency: Currency | null = scheme === undefined ? null : CURRENCY_OF_MANDATE_SCHEME[scheme]
  let effectiveScheme: MandateScheme | undefined = scheme
  if (given(r.iban) || hasLocal) {
    const resolution = resolveBankDetails(r)
    if (!resolution.valid) issues.push(...resolution.issues)
    else {
      const account = resolution.account
      if (scheme !== undefined && !account.available_debit_schemes.includes(scheme)) {
        issues.push(issue(["scheme"], `is not available for bank accounts in ${account.country_code}`))
      }
      currency ??= account.currency
      effectiveScheme ??= mandatePdfSchemeOf(r)
      if (effectiveScheme === undefined) issues.push(issue(["country_code"], `has no direct debit scheme for bank accounts in ${account.country_code}`))
    }
  }
  if (effectiveScheme === "autogiro" && given(r.iban)) issues.push(issue(["iban"], "is not accepted for Autogiro; give local bank details"))
  if (currency === null && given(r.country_code) && r.country_code === "US") currency = "USD"

  if (currency !== null) issues.push(...accountTypeIssues(r.account_type, currency))
  const hasAmount = given(r.subscription_amount)
  const hasFrequency = given(r.subscription_frequency)
  if (hasAmount && !hasFrequency) issues.push(issue(["subscription_frequency"], "is required when subscription_amount is given"))
  if (hasFrequency && !hasAmount) issues.push(issue(["subscription_amount"], "is required when subscription_frequency is given"))
  if (currency !== null && currency !== "USD") {
    if (hasAmount) issues.push(issue(["subscription_amount"], "is only available for USD (ACH) mandates"))
    if (hasFrequency) issues.push(issue(["subscription_frequency"], "is only available for USD (ACH) mandates"))
  }
  if (currency === "USD" && given(r.region) && !/^[A-Z]{2}$/.test(r.region ?? "")) {
    issues.push(issue(["region"], "must be a 2-letter US state code"))
  }
  if (effectiveScheme !== undefined) {
    for (const [field, only, name] of SCHEME_ONLY_FIELDS) {
      if (given(r[field]) && effectiveScheme !== only) issues.push(issue([field], `is only used for ${name} mandates`))
    }
  }
  return issues
}

export const MandatePdfCreate = withRules(MandatePdfFields, [mandatePdfIssues])

export const validateMandatePdfCreate = decodeInput(MandatePdfCreate, MANDATE_PDFS)
