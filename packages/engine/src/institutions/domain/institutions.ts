import { Schema } from "effect"
import { INSTITUTION_STATUSES } from "../data/institutions.ts"

/**
 * An institution as the API returns it. Institutions are reference data (src/data), not stored
 * per organisation, so there is no resource definition and no repository.
 */
export const InstitutionLimit = Schema.NullOr(Schema.Struct({ business: Schema.String, personal: Schema.String }))

export const Institution = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  icon_url: Schema.String,
  logo_url: Schema.String,
  roles: Schema.Array(Schema.String),
  country_code: Schema.String,
  limits: Schema.NullOr(Schema.Struct({ daily: InstitutionLimit, single: InstitutionLimit })),
  autocompletes_collect_bank_account: Schema.Boolean,
  status: Schema.Literals(INSTITUTION_STATUSES)
})
export type Institution = typeof Institution.Type
