import { Schema } from "effect"
import { LocalDate, Timestamp } from "@paykit/core"

/** Field schemas shared by the resource shapes. Stored and returned values, already validated on input. */
export const Id = Schema.String
export const NullableString = Schema.NullOr(Schema.String)
export const CreatedAt = Timestamp
export const NullableTimestamp = Schema.NullOr(Timestamp)
export const NullableDate = Schema.NullOr(LocalDate)
export const Minor = Schema.Int
export const StoredMetadata = Schema.Record(Schema.String, Schema.String)
export type StoredMetadata = typeof StoredMetadata.Type

/** The postal address a creditor, scheme identifier, customer or payer stores, in the real API's field order. */
export const StoredAddress = {
  address_line1: NullableString,
  address_line2: NullableString,
  address_line3: NullableString,
  city: NullableString,
  region: NullableString,
  postal_code: NullableString,
  country_code: NullableString
} as const
