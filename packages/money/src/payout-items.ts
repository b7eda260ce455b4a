import type { Currency } from "@paykit/core"
import { Schema } from "effect"
import { type ExchangeRate, convertMinorUnitsBig, renderExchangeRate } from "./exchange-rate.ts"
import { isSafeBigInt } from "./rounding.ts"

/** Payout item types, exactly as the API's `PayoutItemType`. */
export const PAYOUT_ITEM_TYPES = [
  "payment_paid_out",
  "payment_failed",
  "payment_charged_back",
  "payment_refunded",
  "refund",
  "gocardless_fee",
  "app_fee",
  "revenue_share",
  "surcharge_fee",
  "refund_funds_returned"
] as const
export const PayoutItemType = Schema.Literals(PAYOUT_ITEM_TYPES).annotate({ identifier: "PayoutItemType" })
export type PayoutItemType = typeof PayoutItemType.Type

/** The item types that are fees: their sum, negated, is the payout's `deducted_fees`. */
export const FEE_ITEM_TYPES: ReadonlySet<PayoutItemType> = new Set(["gocardless_fee", "app_fee", "surcharge_fee"])

export interface PayoutItemLinks {
  readonly payment?: string
  readonly mandate?: string
  readonly refund?: string
}

/** Tax on a fee item, in the payout's currency; positive when charged, negative when refunded. */
export interface PayoutItemTaxDraft {
  readonly amount: number
  readonly currency: Currency
  readonly tax_rate_id: string
}

/**
 * A payout item before rendering: `amount` in signed minor units, positive for a credit to the
 * payout and negative for a debit; for a fee item it includes the tax.
 */
export interface PayoutItemDraft {
  readonly type: PayoutItemType
  readonly amount: number
  readonly links: PayoutItemLinks
  readonly taxes: ReadonlyArray<PayoutItemTaxDraft>
}

/** The wire form of a payout item tax (`PayoutItemTaxis`). */
export interface PayoutItemTax {
  readonly amount: string
  readonly currency: Currency
  readonly destination_amount: string | null
  readonly destination_currency: Currency
  readonly exchange_rate: string | null
  readonly tax_rate_id: string
}

/** The wire form of a payout item (`PayoutItem`). */
export interface PayoutItem {
  readonly amount: string
  readonly type: PayoutItemType
  readonly links: PayoutItemLinks
  readonly taxes: ReadonlyArray<PayoutItemTax>
}

/**
 * Payout item amounts are strings of minor units "to one decimal place" in the API ("-120.0");
 * every amount here is a whole number of minor units, so the decimal is always 0.
 */
export const renderItemAmount = (minorUnits: number | bigint): string => `${minorUnits}.0`

export interface TaxDestination {
  /** The payout's `tax_currency`. */
  readonly currency: Currency
  /** Rate from the payout currency to the tax currency; absent until known. */
  readonly rate?: ExchangeRate
}

const renderTax = (t: PayoutItemTaxDraft, destination: TaxDestination): PayoutItemTax => {
  if (t.currency === destination.currency) {
    return {
      amount: renderItemAmount(t.amount),
      currency: t.currency,
      destination_amount: renderItemAmount(t.amount),
      destination_currency: destination.currency,
      exchange_rate: null,
      tax_rate_id: t.tax_rate_id
    }
  }
  const converted = destination.rate === undefined ? undefined : convertMinorUnitsBig(BigInt(t.amount), destination.rate)
  const known = destination.rate !== undefined && converted !== undefined && isSafeBigInt(converted)
  return {
    amount: renderItemAmount(t.amount),
    currency: t.currency,
    destination_amount: known ? renderItemAmount(converted) : null,
    destination_currency: destination.currency,
    exchange_rate: known && destination.rate !== undefined ? renderExchangeRate(destination.rate) : null,
    tax_rate_id: t.tax_rate_id
  }
}

/**
 * Renders an item for `GET /payout_items`. Tax is reported in the payout currency and converted
 * to the tax currency when they differ and a rate is known (`destination_amount` and
 * `exchange_rate` are null until then).
 */
export const renderPayoutItem = (item: PayoutItemDraft, destination: TaxDestination | null): PayoutItem => ({
  amount: renderItemAmount(item.amount),
  type: item.type,
  links: item.links,
  taxes: destination === null ? [] : item.taxes.map((t) => renderTax(t, destination))
})
