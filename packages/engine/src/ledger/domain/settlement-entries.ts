import { Schema } from "effect"
import { CURRENCIES, ID_PREFIXES } from "@paykit/core"
import { SettlementEntry as MoneySettlementEntry } from "@paykit/money"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"

/**
 * The engine's ledger of settled movements (not an API resource): one row per collection, late
 * failure, chargeback or refund, holding @paykit/money's `SettlementEntry` with the fees fixed
 * when it happened. A payout gathers the rows of a creditor and currency whose `payout` is null.
 * Ids use the payout item prefix: every row becomes the payout items of the payout that takes it.
 */
export const LedgerEntry = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  creditor: Schema.String,
  currency: Schema.Literals(CURRENCIES),
  entry: Schema.toType(MoneySettlementEntry),
  payout: Schema.NullOr(Schema.String)
})
export type LedgerEntry = typeof LedgerEntry.Type

export const ledgerEntries = defineResource({
  name: "settlement_entries",
  idPrefix: ID_PREFIXES.payout_item,
  schema: LedgerEntry,
  filters: {
    created_at: (r: LedgerEntry) => r.created_at,
    creditor: (r: LedgerEntry) => r.creditor,
    currency: (r: LedgerEntry) => r.currency,
    payout: (r: LedgerEntry) => r.payout ?? "none",
    kind: (r: LedgerEntry) => r.entry.kind,
    payment: (r: LedgerEntry) => ("payment" in r.entry ? r.entry.payment : null)
  }
})
