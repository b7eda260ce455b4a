import { Schema } from "effect"
import { optionalNullable } from "@paykit/validation"

/** The postal address lines a creditor or customer request may give (each optional, null clears it). */
export const AddressRequestFields = {
  address_line1: optionalNullable(Schema.String),
  address_line2: optionalNullable(Schema.String),
  address_line3: optionalNullable(Schema.String),
  city: optionalNullable(Schema.String),
  region: optionalNullable(Schema.String),
  postal_code: optionalNullable(Schema.String)
} as const
