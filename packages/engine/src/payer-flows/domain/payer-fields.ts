import { Schema } from "effect"
import { CountryCode } from "@paykit/core"

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

/** A URI the payer is sent to (`redirect_uri`, `exit_uri`, `success_redirect_url`): absolute, http or https. */
export const PayerUri = Schema.String.check(
  Schema.makeFilter((s: string) => {
    try {
      const url = new URL(s)
      return url.protocol === "https:" || url.protocol === "http:"
    } catch {
      return false
    }
  }, { message: "must be an absolute http or https URL" })
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
