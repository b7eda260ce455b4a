import { Schema } from "effect"
import { CURRENCIES } from "@paykit/core"

/** The API key of a creditor's held payouts (paykit's own extension, docs/money.md "Held payouts"). */
export const PAYOUT_HOLDS = "payout_holds"

/**
 * Why a creditor's money in a currency is not paid out. The daily run logs each of these once per
 * run while it holds; `Payouts.holds` answers them on demand.
 */
export const PAYOUT_HOLD_REASONS = {
  creditor_not_verified: "the creditor's verification_status is not successful: submit its verification_details (the sandbox's review completes on the next daily run)",
  no_payout_account: "the creditor has no default payout account in this currency: create a creditor_bank_account with set_as_default_payout_account",
  payout_account_not_verified: "the creditor's default payout account in this currency is still being verified (the next daily run's review completes it)"
} as const
export type PayoutHoldReason = keyof typeof PAYOUT_HOLD_REASONS
const REASON_KEYS = Object.keys(PAYOUT_HOLD_REASONS) as ReadonlyArray<PayoutHoldReason>

/**
 * A creditor's collected money in one currency that waits for a payout it cannot have yet: the
 * reason, its description, and the net amount no payout has taken (what the next payout would
 * hold, in minor units; zero or negative when reversals outweigh collections).
 */
export const PayoutHold = Schema.Struct({
  currency: Schema.Literals(CURRENCIES),
  reason: Schema.Literals(REASON_KEYS),
  description: Schema.String,
  amount: Schema.Int,
  links: Schema.Struct({ creditor: Schema.String })
})
export type PayoutHold = typeof PayoutHold.Type
