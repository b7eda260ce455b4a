import { Schema } from "effect"
import { MANDATE_STATUSES } from "@paykit/machines"
import { ID_PREFIXES, MANDATE_SCHEMES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableDate, NullableString, NullableTimestamp, StoredMetadata } from "../../kernel/fields.ts"

export const Mandate = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  reference: NullableString,
  scheme: Schema.Literals(MANDATE_SCHEMES),
  status: Schema.Literals(MANDATE_STATUSES),
  next_possible_charge_date: NullableDate,
  next_possible_standard_ach_charge_date: NullableDate,
  payments_require_approval: Schema.Boolean,
  authorisation_source: Schema.NullOr(Schema.Literals(["web", "telephone", "paper"])),
  consent_type: NullableString,
  funds_settlement: Schema.Literals(["managed", "direct"]),
  mandate_type: NullableString,
  verified_at: NullableTimestamp,
  metadata: StoredMetadata,
  links: Schema.Struct({
    creditor: Schema.String,
    customer: Schema.String,
    customer_bank_account: Schema.String,
    new_mandate: Schema.optionalKey(Schema.String)
  })
})
export type Mandate = typeof Mandate.Type

export const mandates = defineResource({
  name: "mandates",
  idPrefix: ID_PREFIXES.mandate,
  schema: Mandate,
  filters: {
    created_at: (r: Mandate) => r.created_at,
    status: (r: Mandate) => r.status,
    creditor: (r: Mandate) => r.links.creditor,
    customer: (r: Mandate) => r.links.customer,
    customer_bank_account: (r: Mandate) => r.links.customer_bank_account,
    scheme: (r: Mandate) => r.scheme,
    reference: (r: Mandate) => r.reference
  }
})
