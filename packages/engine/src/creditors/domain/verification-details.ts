import { Schema } from "effect"
import { ID_PREFIXES, LocalDate } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"

export const Director = Schema.Struct({
  given_name: Schema.String,
  family_name: Schema.String,
  date_of_birth: LocalDate,
  street: Schema.String,
  city: Schema.String,
  postal_code: Schema.String,
  country_code: Schema.String
})

export const VerificationDetail = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  name: Schema.String,
  company_number: Schema.String,
  description: Schema.String,
  address_line1: Schema.String,
  address_line2: NullableString,
  address_line3: NullableString,
  city: Schema.String,
  postal_code: Schema.String,
  region: NullableString,
  country_code: NullableString,
  directors: Schema.Array(Director),
  links: Schema.Struct({ creditor: Schema.String })
})
export type VerificationDetail = typeof VerificationDetail.Type

export const verificationDetails = defineResource({
  name: "verification_details",
  idPrefix: ID_PREFIXES.verification_detail,
  schema: VerificationDetail,
  filters: {
    created_at: (r: VerificationDetail) => r.created_at,
    creditor: (r: VerificationDetail) => r.links.creditor
  }
})
