import { AUTHORISATION_SOURCES, FUNDS_SETTLEMENTS } from "@paykit/validation"
import { Schema } from "effect"
import { MANDATE_STATUSES } from "@paykit/machines"
import { ID_PREFIXES, IdOf, MANDATE_SCHEMES, MandateScheme, Metadata } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"
import { MetadataUpdateRequest } from "@paykit/core"
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
  authorisation_source: Schema.NullOr(Schema.Literals(AUTHORISATION_SOURCES)),
  consent_type: NullableString,
  funds_settlement: Schema.Literals(FUNDS_SETTLEMENTS),
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
    reference: (r: Mandate) => r.reference,
    mandate_type: (r: Mandate) => r.mandate_type
  }
})

/** The API resource key of mandates: the root of their requests' field errors. */
export const MANDATES_ROOT = "mandates"

export const MandateCreateRequest = Schema.Struct({
  scheme: Schema.optionalKey(MandateScheme),
  reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  authorisation_source: Schema.optionalKey(Schema.Literals(AUTHORISATION_SOURCES)),
  payer_ip_address: Schema.optionalKey(Schema.String),
  links: Schema.Struct({ customer_bank_account: IdOf("customer_bank_account"), creditor: idFilter("creditor") })
})
export type MandateCreateRequest = typeof MandateCreateRequest.Type

/** The body of a mandate's update, cancel and reinstate: metadata only. */
export const MandateMetadataRequest = MetadataUpdateRequest
export type MandateMetadataRequest = typeof MandateMetadataRequest.Type

/** `mandate_type`'s values in the real API (the official client's `MandateMandateType`). */
export const MANDATE_TYPES = ["bank_debit", "instant", "recurring", "vrp_commercial", "vrp_sweeping"] as const

export const MandateListParams = Schema.Struct({
  ...listFields("mandate"),
  creditor: idFilter("creditor"),
  customer: idFilter("customer"),
  customer_bank_account: idFilter("customer_bank_account"),
  reference: Schema.optionalKey(Schema.String),
  scheme: Schema.optionalKey(Schema.Array(MandateScheme)),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(MANDATE_STATUSES))),
  /** The official client's mandate types; paykit's mandates have none (`mandate_type` null), so each answers none. */
  mandate_type: Schema.optionalKey(Schema.Literals(MANDATE_TYPES))
})
export type MandateListParams = typeof MandateListParams.Type

/** Mandate statuses against which payments can still be created: the mandate machine's list. */
export { CHARGEABLE_MANDATE_STATUSES } from "@paykit/machines"

/** Schemes whose mandates the payer approves in their bank before they can be submitted. */
export const CUSTOMER_APPROVAL_SCHEMES: ReadonlyArray<MandateScheme> = ["pay_to"]
