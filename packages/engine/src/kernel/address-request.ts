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

type AddressLine = keyof typeof AddressRequestFields

/** The address lines a creation stores: each the request gives, null for the others. */
export const addressLinesOf = (req: { readonly [K in AddressLine]?: string | null | undefined }): { readonly [K in AddressLine]: string | null } => ({
  address_line1: req.address_line1 ?? null,
  address_line2: req.address_line2 ?? null,
  address_line3: req.address_line3 ?? null,
  city: req.city ?? null,
  region: req.region ?? null,
  postal_code: req.postal_code ?? null
})
