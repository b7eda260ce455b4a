import { Schema } from "effect"
import { CURRENCIES, ID_PREFIXES, LocalDate } from "@paykit/core"
import { AppFeeEntry } from "@paykit/money"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"

/**
 * The partner app a payment or subscription was created by (engine-internal, not on the wire:
 * the real API names no app on a payment). A partner app is a paykit organisation of its own;
 * `creditor` is the creditor of that organisation its partner payouts belong to. Stored in the
 * merchant's organisation under the id of the payment or subscription it attributes.
 */
export const PartnerApp = Schema.Struct({
  organisation: Schema.String.check(Schema.isMinLength(1)),
  creditor: Schema.String.check(Schema.isMinLength(1))
})
export type PartnerApp = typeof PartnerApp.Type

export const AppAttribution = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  app: PartnerApp
})
export type AppAttribution = typeof AppAttribution.Type

export const appAttributions = defineResource({
  name: "app_attributions",
  idPrefix: ID_PREFIXES.payment,
  schema: AppAttribution,
  filters: { created_at: (r: AppAttribution) => r.created_at }
})

/**
 * The partner's ledger (engine-internal): one row per app fee collected on a merchant's payment or
 * refunded to the merchant on its late failure or chargeback, stored in the partner app's
 * organisation. `settled_on` is the day the merchant's movement settled; a partner payout takes
 * the rows whose `payout` is null.
 */
export const AppFeeLedgerEntry = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  creditor: Schema.String,
  currency: Schema.Literals(CURRENCIES),
  merchant_organisation: Schema.String,
  settled_on: LocalDate,
  entry: Schema.toType(AppFeeEntry),
  payout: Schema.NullOr(Schema.String)
})
export type AppFeeLedgerEntry = typeof AppFeeLedgerEntry.Type

export const appFeeEntries = defineResource({
  name: "app_fee_entries",
  idPrefix: ID_PREFIXES.payout_item,
  schema: AppFeeLedgerEntry,
  filters: {
    created_at: (r: AppFeeLedgerEntry) => r.created_at,
    creditor: (r: AppFeeLedgerEntry) => r.creditor,
    currency: (r: AppFeeLedgerEntry) => r.currency,
    payout: (r: AppFeeLedgerEntry) => r.payout ?? "none",
    payment: (r: AppFeeLedgerEntry) => r.entry.payment
  }
})
