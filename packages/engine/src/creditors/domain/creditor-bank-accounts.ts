import { Schema } from "effect"
import { CURRENCIES, ID_PREFIXES } from "@paykit/core"
import { CREDITOR_BANK_ACCOUNT_VERIFICATION_STATUSES } from "@paykit/machines"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString, StoredMetadata } from "../../kernel/fields.ts"

export { CREDITOR_BANK_ACCOUNT_VERIFICATION_STATUSES }

/** A creditor's own account: where payouts go and where withdrawals are sent. */
export const CreditorBankAccount = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  account_holder_name: Schema.String,
  account_number_ending: Schema.String,
  account_type: Schema.NullOr(Schema.Literals(["savings", "checking"])),
  bank_name: NullableString,
  country_code: NullableString,
  currency: Schema.Literals(CURRENCIES),
  enabled: Schema.Boolean,
  verification_status: Schema.Literals(CREDITOR_BANK_ACCOUNT_VERIFICATION_STATUSES),
  metadata: StoredMetadata,
  links: Schema.Struct({ creditor: Schema.String })
})
export type CreditorBankAccount = typeof CreditorBankAccount.Type

export const creditorBankAccounts = defineResource({
  name: "creditor_bank_accounts",
  idPrefix: ID_PREFIXES.creditor_bank_account,
  schema: CreditorBankAccount,
  filters: {
    created_at: (r: CreditorBankAccount) => r.created_at,
    creditor: (r: CreditorBankAccount) => r.links.creditor,
    enabled: (r: CreditorBankAccount) => String(r.enabled)
  }
})
