import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export const PAYER_NAME_VERIFICATION_RESULTS = ["full", "close", "cannot_perform_verification"] as const

export const CustomerBankAccount = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  account_holder_name: Schema.String,
  account_number_ending: Schema.String,
  account_type: Schema.NullOr(Schema.Literals(["savings", "checking"])),
  bank_account_token: NullableString,
  bank_name: NullableString,
  country_code: NullableString,
  currency: NullableString,
  enabled: Schema.Boolean,
  payer_name_verification_result: Schema.NullOr(Schema.Literals(PAYER_NAME_VERIFICATION_RESULTS)),
  trusted_recipient: Schema.Boolean,
  metadata: StoredMetadata,
  links: Schema.Struct({ customer: Schema.String })
})
export type CustomerBankAccount = typeof CustomerBankAccount.Type

export const customerBankAccounts = defineResource({
  name: "customer_bank_accounts",
  idPrefix: ID_PREFIXES.customer_bank_account,
  schema: CustomerBankAccount,
  filters: {
    created_at: (r: CustomerBankAccount) => r.created_at,
    customer: (r: CustomerBankAccount) => r.links.customer,
    enabled: (r: CustomerBankAccount) => String(r.enabled)
  }
})
