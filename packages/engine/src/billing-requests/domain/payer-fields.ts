import { Schema } from "effect"
import { CountryCode } from "@paykit/core"
import { CONTROL_CHARACTER } from "@paykit/validation"

/** A text field the payer may give, leave out, or clear with null. */
export const PayerText = Schema.optionalKey(Schema.NullOr(Schema.String))

/** The postal address a payer gives (billing requests' billing detail, payer authorisations' customer). */
export const PayerAddressFields = {
  address_line1: PayerText,
  address_line2: PayerText,
  address_line3: PayerText,
  city: PayerText,
  region: PayerText,
  postal_code: PayerText,
  country_code: Schema.optionalKey(Schema.NullOr(CountryCode))
} as const

/**
 * A URI the payer is sent to (`redirect_uri`, `exit_uri`, `success_redirect_url`, a bank
 * authorisation's and a notify's `redirect_uri`): absolute, http or https, without control
 * characters. The pages put it in a link and a 303's `Location`, so no `javascript:` or `data:`.
 */
export const PayerUri = Schema.String.check(
  Schema.makeFilter((s: string) => {
    if (CONTROL_CHARACTER.test(s)) return false
    try {
      const url = new URL(s)
      return url.protocol === "https:" || url.protocol === "http:"
    } catch {
      return false
    }
  }, { message: "must be an absolute http or https URL without control characters" })
)

/** The customer details an integrator may prefill on a hosted flow (billing request and redirect flows). */
export const PrefilledCustomerFields = {
  ...PayerAddressFields,
  company_name: PayerText,
  danish_identity_number: PayerText,
  email: PayerText,
  family_name: PayerText,
  given_name: PayerText,
  swedish_identity_number: PayerText
} as const

export const PrefilledBankAccount = Schema.Struct({ account_type: Schema.optionalKey(Schema.Literals(["savings", "checking"])) })
