import { Schema, SchemaGetter } from "effect"
import { CountryCode } from "@paykit/core"
import { INSTITUTION_ROLES, INSTITUTION_SCHEMES } from "../data/institutions.ts"
import { BooleanQuery } from "../../kernel/list-params.ts"

/** The query parameters of `GET /institutions` and `GET /billing_requests/{id}/institutions`. */

const SortCodeQuery = Schema.String.check(
  Schema.makeFilter((s: string) => /^\d{6}$/.test(s.replace(/[-\s]/g, "")), { message: "must be a 6-digit sort code" })
)

export const InstitutionListParams = Schema.Struct({
  country_code: Schema.optionalKey(CountryCode),
  scheme: Schema.optionalKey(Schema.Literals(INSTITUTION_SCHEMES)),
  feature: Schema.optionalKey(Schema.Literals(INSTITUTION_ROLES)),
  branch_code: Schema.optionalKey(SortCodeQuery)
})
export type InstitutionListParams = typeof InstitutionListParams.Type

/** `ids` as a list: one id, a comma-separated string, or an array of either. */
const IdList = Schema.Union([Schema.String, Schema.Array(Schema.String)]).pipe(
  Schema.decodeTo(Schema.Array(Schema.String), {
    decode: SchemaGetter.transform((u: string | ReadonlyArray<string>) =>
      (typeof u === "string" ? [u] : u).flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== "")),
    encode: SchemaGetter.transform((ids: ReadonlyArray<string>) => ids)
  })
)

export const BillingRequestInstitutionParams = Schema.Struct({
  country_code: CountryCode,
  search: Schema.optionalKey(Schema.String),
  ids: Schema.optionalKey(IdList),
  include_disabled: Schema.optionalKey(BooleanQuery)
})
export type BillingRequestInstitutionParams = typeof BillingRequestInstitutionParams.Type
