import { Schema } from "effect"
import { Amount, CURRENCIES, Currency, ID_PREFIXES, IdOf } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor } from "../../kernel/fields.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"

export const NegativeBalanceLimit = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  balance_limit: Minor,
  currency: Schema.Literals(CURRENCIES),
  links: Schema.Struct({ creditor: Schema.String, creator_user: Schema.NullOr(Schema.String) })
})
export type NegativeBalanceLimit = typeof NegativeBalanceLimit.Type

export const negativeBalanceLimits = defineResource({
  name: "negative_balance_limits",
  idPrefix: ID_PREFIXES.negative_balance_limit,
  schema: NegativeBalanceLimit,
  filters: {
    created_at: (r: NegativeBalanceLimit) => r.created_at,
    currency: (r: NegativeBalanceLimit) => r.currency,
    creditor: (r: NegativeBalanceLimit) => r.links.creditor
  }
})

export const NEGATIVE_BALANCE_LIMITS_ROOT = "negative_balance_limits"

/** `GET /negative_balance_limits` parameters. */
export const NegativeBalanceLimitListParams = Schema.Struct({
  ...listFields("negative_balance_limit"),
  creditor: idFilter("creditor"),
  currency: Schema.optionalKey(Currency)
})
export type NegativeBalanceLimitListParams = typeof NegativeBalanceLimitListParams.Type

/** A new limit in force (an engine operation: the API has no create endpoint). */
export const NegativeBalanceLimitSetRequest = Schema.Struct({
  balance_limit: Amount,
  currency: Currency,
  links: Schema.Struct({ creditor: IdOf("creditor"), creator_user: Schema.optionalKey(Schema.String) })
})
export type NegativeBalanceLimitSetCommand = typeof NegativeBalanceLimitSetRequest.Type
