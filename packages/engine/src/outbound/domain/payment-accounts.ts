import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableString } from "../../kernel/fields.ts"

/**
 * A payment account: the creditor's account held by the platform that funds its outbound
 * payments. `account_balance` is what the creditor can still send: funding, minus outbound
 * payments executed, minus those approved and not yet executed (reserved). It may never go below
 * zero: an approval that would overdraw it is refused.
 */
export const PaymentAccount = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  account_balance: Minor,
  account_holder_name: Schema.String,
  account_number_ending: Schema.String,
  bank_name: NullableString,
  currency: NullableString,
  links: Schema.Struct({ creditor: Schema.String })
})
export type PaymentAccount = typeof PaymentAccount.Type

export const paymentAccounts = defineResource({
  name: "payment_accounts",
  idPrefix: ID_PREFIXES.payment_account,
  schema: PaymentAccount,
  filters: {
    created_at: (r: PaymentAccount) => r.created_at,
    creditor: (r: PaymentAccount) => r.links.creditor,
    currency: (r: PaymentAccount) => r.currency
  }
})
