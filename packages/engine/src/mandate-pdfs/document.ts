import type { Currency } from "@paykit/core"
import { bankOf, type MandatePdfRequest, type MandatePdfScheme, resolveBankDetails } from "@paykit/validation"
import type { Customer } from "../customers/domain/customers.ts"
import type { CustomerBankAccount } from "../customers/domain/customer-bank-accounts.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import { identifierSchemeOf } from "../creditors/scheme-identifiers.ts"
import type { StoredAddress } from "../kernel/fields.ts"
import { type MandateDocument, type PdfLanguage, SCHEME_LANGUAGES } from "./domain/mandate-pdfs.ts"

/**
 * What a form shows, resolved from a request's own details (a blank or a filled-in form) or from
 * an existing mandate (its bank details censored to the number's ending, as the mandate holds
 * them), with the creditor as the scheme knows it.
 */

/** The address fields customers, creditors and the request share. */
type Address = { readonly [K in keyof typeof StoredAddress]?: string | null | undefined }

const present = (s: string | null | undefined): s is string => s !== null && s !== undefined && s.trim() !== ""
const orNull = (s: string | null | undefined): string | null => (present(s) ? s : null)

const addressLines = (a: Address): ReadonlyArray<string> =>
  [a.address_line1, a.address_line2, a.address_line3, [a.postal_code, a.city].filter(present).join(" "), a.region, a.country_code].filter(present)

/** A company's name, else the person's given and family names, else null. */
const payerName = (p: { readonly company_name?: string | null | undefined; readonly given_name?: string | null | undefined; readonly family_name?: string | null | undefined }): string | null =>
  present(p.company_name) ? p.company_name : orNull([p.given_name, p.family_name].filter(present).join(" "))

/**
 * The language of a form: the first language the caller accepts that the scheme's form is written
 * in, else English (spec rule 4: English by default).
 */
export const pdfLanguageOf = (scheme: MandatePdfScheme, accepted: ReadonlyArray<string>): PdfLanguage =>
  accepted.find((l): l is PdfLanguage => (SCHEME_LANGUAGES[scheme] as ReadonlyArray<string>).includes(l)) ?? "en"

/** The creditor as the scheme names it: its scheme identifier's name and reference where it has one. */
export const creditorOnForm = (creditor: Creditor, scheme: MandatePdfScheme): MandateDocument["creditor"] => {
  const identifier = creditor.scheme_identifiers.find((s) => s.scheme === identifierSchemeOf(scheme))
  return {
    name: identifier?.name ?? creditor.name,
    address: addressLines(identifier ?? creditor),
    identifier: identifier?.reference ?? null
  }
}

const NO_ACCOUNT: MandateDocument["account"] = {
  holder_name: null, iban: null, bic: null, account_number: null, bank_code: null, branch_code: null,
  account_type: null, country_code: null, censored: false
}

/** The account of a request: the details normalised as the scheme reads them, or blanks. */
const requestAccount = (r: MandatePdfRequest): MandateDocument["account"] => {
  const holder = orNull(r.account_holder_name)
  const details = present(r.iban) || present(r.account_number) || present(r.bank_code) || present(r.branch_code)
  const resolution = details ? resolveBankDetails(r) : undefined
  if (resolution === undefined || !resolution.valid) return { ...NO_ACCOUNT, holder_name: holder, account_type: r.account_type ?? null }
  const a = resolution.account
  return {
    holder_name: holder,
    iban: a.iban,
    bic: orNull(r.bic) ?? bankOf(a).bic,
    account_number: a.account_number,
    bank_code: a.bank_code,
    branch_code: a.branch_code,
    account_type: r.account_type ?? null,
    country_code: a.country_code,
    censored: false
  }
}

/** The document of a request that names no mandate. */
export const requestDocument = (
  r: MandatePdfRequest,
  scheme: MandatePdfScheme,
  language: PdfLanguage,
  creditor: Creditor,
  currency: Currency
): MandateDocument => ({
  scheme,
  language,
  creditor: creditorOnForm(creditor, scheme),
  payer: {
    name: payerName(r) ?? orNull(r.account_holder_name),
    address: addressLines(r),
    phone_number: orNull(r.phone_number),
    swedish_identity_number: orNull(r.swedish_identity_number),
    danish_identity_number: orNull(r.danish_identity_number),
    ip_address: orNull(r.payer_ip_address)
  },
  account: requestAccount(r),
  mandate_reference: orNull(r.mandate_reference),
  signature_date: r.signature_date ?? null,
  subscription: r.subscription_amount === undefined || r.subscription_amount === null || r.subscription_frequency === undefined || r.subscription_frequency === null
    ? null
    : { amount: r.subscription_amount, currency, frequency: r.subscription_frequency }
})

/** Only the ending of the number is held; the form shows it behind a mask. */
const masked = (ending: string): string => `••••${ending}`

/** The document of an existing mandate: its customer, its bank account (censored) and reference. */
export const mandateDocument = (
  mandate: Mandate,
  scheme: MandatePdfScheme,
  language: PdfLanguage,
  parties: { readonly creditor: Creditor; readonly customer: Customer; readonly account: CustomerBankAccount }
): MandateDocument => {
  const { creditor, customer, account } = parties
  const number = masked(account.account_number_ending)
  return {
    scheme,
    language,
    creditor: creditorOnForm(creditor, scheme),
    payer: {
      name: payerName(customer) ?? orNull(account.account_holder_name),
      address: addressLines(customer),
      phone_number: orNull(customer.phone_number),
      swedish_identity_number: orNull(customer.swedish_identity_number),
      danish_identity_number: orNull(customer.danish_identity_number),
      ip_address: null
    },
    account: {
      ...NO_ACCOUNT,
      holder_name: orNull(account.account_holder_name),
      iban: scheme === "sepa_core" ? number : null,
      account_number: scheme === "sepa_core" ? null : number,
      account_type: account.account_type,
      country_code: account.country_code,
      censored: true
    },
    mandate_reference: mandate.reference,
    signature_date: null,
    subscription: null
  }
}
