import { Schema, SchemaGetter } from "effect"

/** The API's key of a funds check's answer (`{"funds_availability": {"available": true}}`). */
export const FUNDS_AVAILABILITY = "funds_availability"

export const FundsAvailability = Schema.Struct({ available: Schema.Boolean })
export type FundsAvailability = typeof FundsAvailability.Type

/** A positive whole number of minor units, given as an integer or as the query string carries it (`"1500"`). */
const QueryAmount = Schema.Union([Schema.Number, Schema.String]).pipe(Schema.decodeTo(
  Schema.Number.check(
    Schema.makeFilter((n: number) => Number.isSafeInteger(n) && n >= 1 && n < 1e15, { message: "must be a positive whole number of minor units" })
  ),
  {
    decode: SchemaGetter.transform((u: number | string) => (typeof u === "number" ? u : /^[1-9]\d{0,14}$/.test(u) ? Number(u) : Number.NaN)),
    encode: SchemaGetter.transform((n: number) => n)
  }
))

/** `GET /funds_availability/{mandate}` parameters: the amount to check (the client's `FundsAvailabilityCheckRequest`). */
export const FundsAvailabilityParams = Schema.Struct({ amount: Schema.optionalKey(QueryAmount) })
export type FundsAvailabilityParams = typeof FundsAvailabilityParams.Type
