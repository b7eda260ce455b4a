import { Schema, SchemaGetter } from "effect"

/** The API's key of a funds check's answer (`{"funds_availability": {"available": true}}`). */
export const FUNDS_AVAILABILITY = "funds_availability"

export const FundsAvailability = Schema.Struct({ available: Schema.Boolean })
export type FundsAvailability = typeof FundsAvailability.Type

/** A positive whole number of minor units, as the query string carries it (`"1500"`). */
const QueryAmount = Schema.String.check(
  Schema.makeFilter((s: string) => /^[1-9]\d{0,14}$/.test(s), { message: "must be a positive whole number of minor units" })
).pipe(Schema.decodeTo(Schema.Number, {
  decode: SchemaGetter.transform((s: string) => Number(s)),
  encode: SchemaGetter.transform((n: number) => String(n))
}))

/** `GET /funds_availability/{mandate}` parameters: the amount to check (the client's `FundsAvailabilityCheckRequest`). */
export const FundsAvailabilityParams = Schema.Struct({ amount: Schema.optionalKey(QueryAmount) })
export type FundsAvailabilityParams = typeof FundsAvailabilityParams.Type
