import { Schema } from "effect"
import { CURRENCIES, ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor } from "../../kernel/fields.ts"

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
