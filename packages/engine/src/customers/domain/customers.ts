import { Schema } from "effect"
import { CountryCode, fieldError, ID_PREFIXES, Metadata, Timestamp } from "@paykit/core"
import { Email, optionalNullable, OptionalName } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress, StoredMetadata } from "../../kernel/fields.ts"
import { AddressRequestFields } from "../../kernel/address-request.ts"
import { listFields } from "../../kernel/list-params.ts"

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
  metadata: StoredMetadata,
  /**
   * When the customer was removed (`DELETE /customers/:id`). Stored only: a removed customer is
   * never read or listed again, so no answer of the API carries it.
   */
  removed_at: Schema.optionalKey(Timestamp)
})
export type Customer = typeof Customer.Type

/** The value of the `removed` filter: every list of customers asks for `false`. */
export const isRemoved = (c: Customer): boolean => c.removed_at !== undefined

export const customers = defineResource({
  name: "customers",
  idPrefix: ID_PREFIXES.customer,
  schema: Customer,
  filters: {
    created_at: (r: Customer) => r.created_at,
    email: (r: Customer) => r.email,
    removed: (r: Customer) => String(isRemoved(r))
  }
})

/** The API resource key of customers: the root of their requests' field errors. */
export const CUSTOMERS_ROOT = "customers"

export const CustomerFields = {
  email: optionalNullable(Email),
  given_name: optionalNullable(OptionalName),
  family_name: optionalNullable(OptionalName),
  company_name: optionalNullable(OptionalName),
  ...AddressRequestFields,
  country_code: optionalNullable(CountryCode),
  language: optionalNullable(Schema.String),
  phone_number: optionalNullable(Schema.String),
  swedish_identity_number: optionalNullable(Schema.String),
  danish_identity_number: optionalNullable(Schema.String),
  metadata: Schema.optionalKey(Metadata)
} as const

export const CustomerCreateRequest = Schema.Struct(CustomerFields)
export type CustomerCreateRequest = typeof CustomerCreateRequest.Type
export const CustomerUpdateRequest = Schema.Struct(CustomerFields)
export type CustomerUpdateRequest = typeof CustomerUpdateRequest.Type

export const CustomerListParams = Schema.Struct({ ...listFields("customer"), email: Schema.optionalKey(Schema.String) })
export type CustomerListParams = typeof CustomerListParams.Type

/** Cross-field rule of customers: a person's two names, or a company name. */
export const customerNameErrors = (
  root: string,
  c: { readonly given_name?: string | null; readonly family_name?: string | null; readonly company_name?: string | null }
) =>
  (c.company_name ?? "") === "" && ((c.given_name ?? "") === "" || (c.family_name ?? "") === "")
    ? [fieldError(root, ["given_name"], "is required unless company_name is given"), fieldError(root, ["family_name"], "is required unless company_name is given")]
    : []

/** The fields that name or reach the person: what removing a customer erases, with the metadata. */
const PERSONAL_FIELDS = [
  "email", "given_name", "family_name", "company_name", "address_line1", "address_line2", "address_line3", "city", "region",
  "postal_code", "country_code", "phone_number", "swedish_identity_number", "danish_identity_number"
] as const satisfies ReadonlyArray<keyof Customer>
const ERASED = Object.fromEntries(PERSONAL_FIELDS.map((field) => [field, null])) as Record<(typeof PERSONAL_FIELDS)[number], null>

/**
 * A live customer's record as removed: the person's fields and metadata erased; the id, creation
 * time and language kept, so the events and resources that link to it still resolve to a record.
 * This is the answer to the removal; what is stored adds `removed_at`.
 */
export const erasedCustomer = (c: Customer): Customer => ({ ...c, ...ERASED, metadata: {} })
