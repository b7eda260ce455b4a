import { Schema } from "effect"
import { ID_PREFIXES, MandateScheme } from "@paykit/core"
import { PAYER_AUTHORISATION_STATUSES } from "@paykit/machines"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredAddress, StoredMetadata } from "../../kernel/fields.ts"

export const PayerAuthorisationCustomer = Schema.Struct({
  email: NullableString,
  given_name: NullableString,
  family_name: NullableString,
  company_name: NullableString,
  ...StoredAddress,
  locale: NullableString,
  swedish_identity_number: NullableString,
  danish_identity_number: NullableString,
  metadata: StoredMetadata
})
export type PayerAuthorisationCustomer = typeof PayerAuthorisationCustomer.Type

export const PayerAuthorisationBankAccount = Schema.Struct({
  account_holder_name: NullableString,
  account_number: NullableString,
  account_number_ending: NullableString,
  account_number_suffix: NullableString,
  account_type: Schema.NullOr(Schema.Literals(["savings", "checking"])),
  bank_code: NullableString,
  branch_code: NullableString,
  country_code: NullableString,
  currency: NullableString,
  iban: NullableString,
  metadata: StoredMetadata
})
export type PayerAuthorisationBankAccount = typeof PayerAuthorisationBankAccount.Type

export const PayerAuthorisationMandate = Schema.Struct({
  reference: NullableString,
  scheme: Schema.NullOr(MandateScheme),
  payer_ip_address: NullableString,
  metadata: StoredMetadata
})
export type PayerAuthorisationMandate = typeof PayerAuthorisationMandate.Type

export const IncompleteField = Schema.Struct({ field: Schema.String, message: Schema.String, request_pointer: Schema.String })
export type IncompleteField = typeof IncompleteField.Type

/** A payer authorisation (deprecated flow) with the real API's fields. */
export const PayerAuthorisation = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  status: Schema.Literals(PAYER_AUTHORISATION_STATUSES),
  customer: PayerAuthorisationCustomer,
  bank_account: PayerAuthorisationBankAccount,
  mandate: PayerAuthorisationMandate,
  incomplete_fields: Schema.Array(IncompleteField),
  links: Schema.Struct({
    customer: Schema.optionalKey(Schema.String),
    bank_account: Schema.optionalKey(Schema.String),
    mandate: Schema.optionalKey(Schema.String)
  })
})
export type PayerAuthorisation = typeof PayerAuthorisation.Type

export const payerAuthorisations = defineResource({
  name: "payer_authorisations",
  idPrefix: ID_PREFIXES.payer_authorisation,
  schema: PayerAuthorisation,
  filters: {
    created_at: (r: PayerAuthorisation) => r.created_at,
    status: (r: PayerAuthorisation) => r.status
  }
})
