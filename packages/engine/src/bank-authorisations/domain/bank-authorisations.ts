import { Schema } from "effect"
import { ID_PREFIXES, Timestamp } from "@paykit/core"
import { BANK_AUTHORISATION_STATES } from "@paykit/machines"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableTimestamp } from "../../kernel/fields.ts"

/**
 * A bank authorisation with the real API's fields. `status` is this engine's addition: the real
 * resource shows its state only through `last_visited_at`, `authorised_at` and `expires_at`;
 * the status is the @paykit/machines state those fields describe. `qr_code_url` is a PNG QR code
 * of `url` served by this server (null on authorisations stored before it was).
 */
export const BankAuthorisation = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  authorisation_type: Schema.Literals(["mandate", "payment"]),
  url: Schema.String,
  qr_code_url: Schema.NullOr(Schema.String),
  redirect_uri: Schema.String,
  expires_at: Timestamp,
  last_visited_at: NullableTimestamp,
  authorised_at: NullableTimestamp,
  status: Schema.Literals(BANK_AUTHORISATION_STATES),
  links: Schema.Struct({ billing_request: Schema.String, institution: Schema.optionalKey(Schema.String) })
})
export type BankAuthorisation = typeof BankAuthorisation.Type

export const bankAuthorisations = defineResource({
  name: "bank_authorisations",
  idPrefix: ID_PREFIXES.bank_authorisation,
  schema: BankAuthorisation,
  filters: {
    created_at: (r: BankAuthorisation) => r.created_at,
    status: (r: BankAuthorisation) => r.status,
    billing_request: (r: BankAuthorisation) => r.links.billing_request,
    expires_at: (r: BankAuthorisation) => r.expires_at
  }
})
