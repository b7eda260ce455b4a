import {
  Amount,
  type Currency,
  Currency as CurrencySchema,
  InvalidState,
  LocalDate,
  type ValidationFailed,
  decodeInput,
  fieldError,
  validationFailed
} from "@paykit/core"
import { Result, Schema } from "effect"
import { type PayoutItem, type PayoutItemDraft, renderPayoutItem } from "./payout-items.ts"
import { BankReferencePrefix, PayoutReferenceSequence, payoutReference } from "./reference.ts"
import { isSafeBigInt, sumBig } from "./rounding.ts"

/**
 * Partner payouts (`payout_type` `partner`): a partner app's app fees, paid out daily per
 * currency. App fees collected are credits; app fees refunded to merchants (on a late failure or
 * chargeback) are debits. Nothing is deducted from a partner payout (`deducted_fees` 0).
 */

const ROOT = "payouts"
const Id = Schema.String.check(Schema.isMinLength(1))

export const AppFeeEntry = Schema.Struct({
  kind: Schema.Literals(["app_fee_collected", "app_fee_refunded"]),
  currency: CurrencySchema,
  /** The day the app fee settled. */
  date: LocalDate,
  payment: Id,
  mandate: Id,
  amount: Amount
}).annotate({ identifier: "AppFeeEntry" })
export type AppFeeEntry = typeof AppFeeEntry.Type

export const PartnerPayoutInput = Schema.Struct({
  partner: Schema.Struct({ id: Id, bank_reference_prefix: BankReferencePrefix }),
  currency: CurrencySchema,
  date: LocalDate,
  reference_sequence: PayoutReferenceSequence,
  entries: Schema.Array(AppFeeEntry)
}).annotate({ identifier: "PartnerPayoutInput" })
export type PartnerPayoutInput = typeof PartnerPayoutInput.Type

export interface PartnerPayout {
  readonly payout_type: "partner"
  readonly currency: Currency
  readonly date: LocalDate
  /** Signed: a day with more app fees refunded than collected nets below zero and pays nothing. */
  readonly amount: number
  readonly deducted_fees: 0
  readonly reference: string
  readonly tax_currency: null
  readonly items: ReadonlyArray<PayoutItemDraft>
  readonly rendered_items: ReadonlyArray<PayoutItem>
}

/** The item of an app fee entry in a partner payout: a credit when collected, a debit when refunded; none for zero. */
export const itemsOfAppFeeEntry = (e: Pick<AppFeeEntry, "kind" | "payment" | "mandate" | "amount">): ReadonlyArray<PayoutItemDraft> =>
  e.amount === 0
    ? []
    : [{ type: "app_fee", amount: e.kind === "app_fee_collected" ? e.amount : -e.amount, links: { payment: e.payment, mandate: e.mandate }, taxes: [] }]

const decode = decodeInput(PartnerPayoutInput, ROOT)

export const assemblePartnerPayout = (raw: unknown): Result.Result<PartnerPayout, ValidationFailed | InvalidState> =>
  Result.flatMap(decode(raw), assembleDecodedPartnerPayout)

export const assembleDecodedPartnerPayout = (
  input: PartnerPayoutInput
): Result.Result<PartnerPayout, ValidationFailed | InvalidState> => {
  const misplaced = input.entries.flatMap((e, i) => [
    ...(e.currency === input.currency ? [] : [fieldError(ROOT, ["entries", i, "currency"], `must be the payout currency ${input.currency}`)]),
    ...(e.date === input.date ? [] : [fieldError(ROOT, ["entries", i, "date"], `must be the payout day ${input.date}`)])
  ])
  if (misplaced.length > 0) return Result.fail(validationFailed(misplaced))

  const items = input.entries.flatMap(itemsOfAppFeeEntry)
  const amount = sumBig(items.map((i) => i.amount))
  if (!isSafeBigInt(amount)) {
    return Result.fail(new InvalidState({
      reason: "payout_amount_out_of_range",
      message: "the partner payout's amount passes 2^53 - 1 minor units"
    }))
  }
  return Result.succeed({
    payout_type: "partner",
    currency: input.currency,
    date: input.date,
    amount: Number(amount),
    deducted_fees: 0,
    reference: payoutReference(input.partner.bank_reference_prefix, input.reference_sequence),
    tax_currency: null,
    items,
    rendered_items: items.map((i) => renderPayoutItem(i, null))
  })
}
