import { Schema } from "effect"
import { ID_PREFIXES, IdOf } from "@paykit/core"
import { PositiveAmount } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableString } from "../../kernel/fields.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"

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

/** The API's key of payment accounts: their path, and the root of their requests' field errors. */
export const PAYMENT_ACCOUNTS = "payment_accounts"

export const paymentAccounts = defineResource({
  name: PAYMENT_ACCOUNTS,
  idPrefix: ID_PREFIXES.payment_account,
  schema: PaymentAccount,
  filters: {
    created_at: (r: PaymentAccount) => r.created_at,
    creditor: (r: PaymentAccount) => r.links.creditor,
    currency: (r: PaymentAccount) => r.currency
  }
})

/** Sandbox only: money arriving in the creditor's payment account. */
export const PaymentAccountFundRequest = Schema.Struct({
  amount: PositiveAmount,
  links: Schema.Struct({ creditor: IdOf("creditor") })
})
export type PaymentAccountFundRequest = typeof PaymentAccountFundRequest.Type

export const PaymentAccountListParams = Schema.Struct({ ...listFields("payment_account"), creditor: idFilter("creditor") })
export type PaymentAccountListParams = typeof PaymentAccountListParams.Type
