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
