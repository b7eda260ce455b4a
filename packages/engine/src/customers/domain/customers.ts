import { Schema } from "effect"
import { CountryCode, Currency, fieldError, ID_PREFIXES, Metadata, Timestamp } from "@paykit/core"
import { Email, optionalNullable, OptionalName } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress, StoredMetadata } from "../../kernel/fields.ts"
import { AddressRequestFields } from "../../kernel/address-request.ts"
import { listFields, SortDirection } from "../../kernel/list-params.ts"

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

/**
 * ASCII letters in lower case: how a sort key ignores case. Only ASCII, so that the migration that
 * gave the customers stored before the key theirs (0066, SQL's `translate`) agrees byte for byte.
 */
export const sortFolded = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** The name a customer is listed by (`sort_field=name`): a person's given and family names, else the company's. */
export const customerSortName = (c: Customer): string =>
  sortFolded([c.given_name, c.family_name].filter((part) => part !== null && part !== "").join(" ") || (c.company_name ?? ""))

export const customers = defineResource({
  name: "customers",
  idPrefix: ID_PREFIXES.customer,
  schema: Customer,
  filters: {
    created_at: (r: Customer) => r.created_at,
    email: (r: Customer) => r.email,
    removed: (r: Customer) => String(isRemoved(r)),
    // Orders of the list (`sort_field`): every customer has a value, "" for none.
    sort_name: customerSortName,
    sort_company_name: (r: Customer) => sortFolded(r.company_name ?? "")
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

/** `sort_field` of customers, and the filter key each orders by. */
export const CUSTOMER_SORT_KEYS = { name: "sort_name", company_name: "sort_company_name", created_at: "created_at" } as const

export const CustomerListParams = Schema.Struct({
  ...listFields("customer"),
  email: Schema.optionalKey(Schema.String),
  /** The customers with a bank account in the currency. */
  currency: Schema.optionalKey(Currency),
  /** Whether the customer has an action to take: none has in paykit, which asks payers for nothing after their mandate. */
  action_required: Schema.optionalKey(Schema.Literals(["true", "false"])),
  sort_field: Schema.optionalKey(Schema.Literals(Object.keys(CUSTOMER_SORT_KEYS) as ["name", "company_name", "created_at"])),
  sort_direction: Schema.optionalKey(SortDirection)
})
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
