import {
  CountryCode,
  type Currency,
  Currency as CurrencySchema,
  InvalidState,
  type ValidationFailed,
  decodeInput,
  fieldError,
  validationFailed
} from "@paykit/core"
import { Result, Schema } from "effect"
import { exchangeRateOf, ExchangeRateString } from "./exchange-rate.ts"
import {
  FEE_ITEM_TYPES,
  type PayoutItem,
  type PayoutItemDraft,
  type PayoutItemLinks,
  type PayoutItemType,
  renderPayoutItem
} from "./payout-items.ts"
import { BankReferencePrefix, PayoutReferenceSequence, payoutReference } from "./reference.ts"
import { isSafeBigInt, sumBig } from "./rounding.ts"
import { SettlementEntry, type TaxedFeeInput } from "./settlement.ts"
import { TAX_CURRENCY, taxJurisdictionOf } from "./tax-rates.ts"

/**
 * Payout assembly: from a creditor's settled entries in one currency, the payout's items, its
 * `amount`, its `deducted_fees` and its `reference`.
 *
 * Signs: an item is positive when it credits the merchant and negative when it debits them.
 * `amount` is the sum of the items; `deducted_fees` is minus the sum of the fee items
 * (`gocardless_fee`, `app_fee`, `surcharge_fee`, tax included), which is (service fees + app fees
 * + surcharge fees) - refunded fees, negative when more fees were refunded than charged.
 */

const ROOT = "payouts"

export const PayoutAssemblyInput = Schema.Struct({
  creditor: Schema.Struct({
    id: Schema.String,
    bank_reference_prefix: BankReferencePrefix,
    country_code: Schema.NullOr(CountryCode)
  }),
  currency: CurrencySchema,
  /** The creditor's payout number, which makes the reference suffix. */
  reference_sequence: PayoutReferenceSequence,
  /** True when the merchant is invoiced for fees: no fee is deducted and `deducted_fees` is 0. */
  fees_invoiced: Schema.Boolean,
  /** Rate from the payout currency to the tax currency, when they differ and it is known. */
  tax_exchange_rate: Schema.optionalKey(ExchangeRateString),
  entries: Schema.Array(SettlementEntry)
}).annotate({ identifier: "PayoutAssemblyInput" })
export type PayoutAssemblyInput = typeof PayoutAssemblyInput.Type

export interface PayoutAssembly {
  readonly payout_type: "merchant"
  readonly currency: Currency
  /**
   * Signed minor units. A payout is only sent for a positive amount; zero or less means the
   * balance is carried to the next payout (a negative balance).
   */
  readonly amount: number
  readonly deducted_fees: number
  readonly reference: string
  readonly tax_currency: Currency | null
  readonly items: ReadonlyArray<PayoutItemDraft>
  /** The items as `GET /payout_items` renders them. */
  readonly rendered_items: ReadonlyArray<PayoutItem>
}

/** The reason when a payout's sums pass 2^53 - 1 minor units. */
export const PAYOUT_AMOUNT_OUT_OF_RANGE = "payout_amount_out_of_range"

const feeTotal = (f: TaxedFeeInput): number => f.fee + (f.tax?.amount ?? 0)

const item = (
  type: PayoutItemType,
  amount: number,
  links: PayoutItemLinks,
  currency: Currency,
  tax: TaxedFeeInput["tax"] = null,
  taxSign: 1 | -1 = 1
): PayoutItemDraft => ({
  type,
  amount,
  links,
  taxes: tax === null ? [] : [{ amount: taxSign * tax.amount, currency, tax_rate_id: tax.tax_rate_id }]
})

/**
 * The items of one entry, in a fixed order (the money item, then its fees). Zero fees make no
 * item; fees are left out entirely when the merchant is invoiced for them.
 */
export const itemsOfEntry = (entry: SettlementEntry, feesInvoiced: boolean): ReadonlyArray<PayoutItemDraft> => {
  const c = entry.currency
  const fees = (drafts: ReadonlyArray<PayoutItemDraft>) =>
    feesInvoiced ? [] : drafts.filter((d) => d.amount !== 0)
  switch (entry.kind) {
    case "payment_paid_out": {
      const links = { payment: entry.payment, mandate: entry.mandate }
      return [
        item("payment_paid_out", entry.amount, links, c),
        ...fees([
          // A fee charged: a debit; its tax is tax charged (positive).
          item("gocardless_fee", -feeTotal(entry.gocardless_fee), links, c, entry.gocardless_fee.tax),
          item("app_fee", -entry.app_fee, links, c)
        ])
      ]
    }
    case "late_failure_settled":
    case "chargeback_settled": {
      const links = { payment: entry.payment, mandate: entry.mandate }
      return [
        item(entry.kind === "late_failure_settled" ? "payment_failed" : "payment_charged_back", -entry.amount, links, c),
        ...fees([
          // Fees refunded: credits, and the tax on them is tax refunded (negative).
          item("gocardless_fee", feeTotal(entry.refunded_gocardless_fee), links, c, entry.refunded_gocardless_fee.tax, -1),
          item("app_fee", entry.refunded_app_fee, links, c),
          item("surcharge_fee", -feeTotal(entry.surcharge), links, c, entry.surcharge.tax)
        ])
      ]
    }
    case "payment_refunded": {
      const links = { payment: entry.payment, mandate: entry.mandate, refund: entry.refund }
      return [
        item("payment_refunded", -entry.amount, links, c),
        ...fees([item("gocardless_fee", -feeTotal(entry.gocardless_fee), links, c, entry.gocardless_fee.tax)])
      ]
    }
    case "refund":
    case "refund_funds_returned": {
      const links = entry.mandate === undefined ? { refund: entry.refund } : { refund: entry.refund, mandate: entry.mandate }
      return [item(entry.kind, entry.kind === "refund" ? -entry.amount : entry.amount, links, c)]
    }
  }
}

const decode = decodeInput(PayoutAssemblyInput, ROOT)

/** Decodes the input and assembles the payout; every failure is a typed value. */
export const assemblePayout = (raw: unknown): Result.Result<PayoutAssembly, ValidationFailed | InvalidState> =>
  Result.flatMap(decode(raw), assembleDecodedPayout)

export const assembleDecodedPayout = (
  input: PayoutAssemblyInput
): Result.Result<PayoutAssembly, ValidationFailed | InvalidState> => {
  const wrongCurrency = input.entries.flatMap((e, i) =>
    e.currency === input.currency ? [] : [fieldError(ROOT, ["entries", i, "currency"], `must be the payout currency ${input.currency}`)]
  )
  if (wrongCurrency.length > 0) return Result.fail(validationFailed(wrongCurrency))

  const items = input.entries.flatMap((e) => itemsOfEntry(e, input.fees_invoiced))
  const amount = sumBig(items.map((i) => i.amount))
  const deducted = -sumBig(items.filter((i) => FEE_ITEM_TYPES.has(i.type)).map((i) => i.amount))
  if (!isSafeBigInt(amount) || !isSafeBigInt(deducted)) {
    return Result.fail(new InvalidState({
      reason: PAYOUT_AMOUNT_OUT_OF_RANGE,
      message: "the payout's amount or deducted fees pass 2^53 - 1 minor units; split it into several payouts"
    }))
  }

  const jurisdiction = taxJurisdictionOf(input.creditor.country_code)
  const taxCurrency = jurisdiction === null ? null : TAX_CURRENCY[jurisdiction]
  const destination = taxCurrency === null
    ? null
    : input.tax_exchange_rate === undefined
    ? { currency: taxCurrency }
    : { currency: taxCurrency, rate: exchangeRateOf(input.tax_exchange_rate) }

  return Result.succeed({
    payout_type: "merchant",
    currency: input.currency,
    amount: Number(amount),
    deducted_fees: Number(deducted),
    reference: payoutReference(input.creditor.bank_reference_prefix, input.reference_sequence),
    tax_currency: taxCurrency,
    items,
    rendered_items: items.map((i) => renderPayoutItem(i, destination))
  })
}
