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
