import {
  Amount,
  type Currency,
  Currency as CurrencySchema,
  InvalidState,
  NEGATIVE_BALANCE_LIMIT_DEFAULT,
  SignedAmount,
  type ValidationFailed,
  decodeInput,
  formatMinorUnits
} from "@paykit/core"
import { Result, Schema } from "effect"

/**
 * Negative balance limits: the threshold below zero beyond which a creditor's refunds are
 * refused. `balance_limit` is a positive number of minor units standing for a negative balance
 * (10000 lets the balance go down to -100.00); the default is 0, so a refund may not take the
 * balance below zero. The balance may reach exactly `-balance_limit`.
 */

/** The default limit when the creditor has none (core's named limit). */
export const DEFAULT_NEGATIVE_BALANCE_LIMIT = NEGATIVE_BALANCE_LIMIT_DEFAULT

/** The real API's reason for a refund the creditor's balance cannot cover. */
export const AVAILABLE_REFUND_AMOUNT_INSUFFICIENT = "available_refund_amount_insufficient"

export const RefundBalanceCheckInput = Schema.Struct({
  currency: CurrencySchema,
  /** The creditor's current balance in that currency, signed minor units. */
  balance: SignedAmount,
  /** The creditor's `balance_limit` in that currency; absent means the default 0. */
  balance_limit: Schema.optionalKey(Amount),
  /** The refund requested. */
  amount: Amount
}).annotate({ identifier: "RefundBalanceCheckInput" })
export type RefundBalanceCheckInput = typeof RefundBalanceCheckInput.Type

/** How much can be refunded: balance + limit, never below 0. */
export const availableRefundAmount = (balance: number, balanceLimit: number): bigint => {
  const available = BigInt(balance) + BigInt(balanceLimit)
  return available > 0n ? available : 0n
}

/** The balance after a permitted refund. */
export interface RefundPermitted {
  readonly balance_after: number
}

export const checkDecodedRefund = (input: RefundBalanceCheckInput): Result.Result<RefundPermitted, InvalidState> => {
  const limit = input.balance_limit ?? DEFAULT_NEGATIVE_BALANCE_LIMIT
  const available = availableRefundAmount(input.balance, limit)
  if (BigInt(input.amount) <= available) {
    return Result.succeed({ balance_after: Number(BigInt(input.balance) - BigInt(input.amount)) })
  }
  return Result.fail(new InvalidState({
    reason: AVAILABLE_REFUND_AMOUNT_INSUFFICIENT,
    message: `The creditor does not have sufficient balance for refunds available to cover the cost of the requested refund: ${
      describe(Number(available), input.currency)
    } available`
  }))
}

const describe = (amount: number, currency: Currency): string => `${formatMinorUnits(amount, currency)} ${currency}`

const decode = decodeInput(RefundBalanceCheckInput, "refunds")

/** Decodes the input and checks the refund against the negative balance limit. */
export const checkRefundAgainstNegativeBalanceLimit = (
  raw: unknown
): Result.Result<RefundPermitted, ValidationFailed | InvalidState> => Result.flatMap(decode(raw), checkDecodedRefund)
