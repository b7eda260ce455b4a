import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress, StoredMetadata } from "../../kernel/fields.ts"

export const Customer = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  email: NullableString,
  given_name: NullableString,
  family_name: NullableString,
  company_name: NullableString,
  ...StoredAddress,
  language: NullableString,
  phone_number: NullableString,
  swedish_identity_number: NullableString,
  danish_identity_number: NullableString,
  metadata: StoredMetadata
})
export type Customer = typeof Customer.Type

export const customers = defineResource({
  name: "customers",
  idPrefix: ID_PREFIXES.customer,
  schema: Customer,
  filters: {
    created_at: (r: Customer) => r.created_at,
    email: (r: Customer) => r.email
  }
})
