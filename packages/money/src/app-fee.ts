import { APP_FEE_MAX_BASIS_POINTS, type ValidationFailed, invalidField } from "@paykit/core"
import { Result } from "effect"
import { BASIS_POINTS_PER_UNIT } from "./fee-schedule.ts"

/**
 * App fees: charged by a partner app on a payment it creates, deducted from the merchant's
 * proceeds and credited to the partner. At most 50% of the payment amount
 * (`APP_FEE_MAX_BASIS_POINTS`). This file is the one place the limit is checked: requests
 * (payments, subscriptions, billing requests) and the charges all import it.
 */

/** The largest app fee allowed on a payment of `amount`: floor(amount x 50%), exact in bigint. */
export const maxAppFee = (amount: number): number =>
  Number((BigInt(amount) * BigInt(APP_FEE_MAX_BASIS_POINTS)) / BigInt(BASIS_POINTS_PER_UNIT))

/**
 * Whether `appFee` is within the limit of `amount`. A fee is a whole number, so it is at most the
 * floor of the share exactly when `appFee x 10000 <= amount x 5000`; the products of two safe
 * integers pass 2^53, which is why the comparison is in bigint and never in floats.
 */
export const isAppFeeWithinLimit = (appFee: number, amount: number): boolean => appFee <= maxAppFee(amount)

/** The message of the `app_fee` error, wherever the limit is checked. */
export const APP_FEE_MESSAGE = `must be at most ${APP_FEE_MAX_BASIS_POINTS / 100}% of the amount`

/**
 * Checks a decoded `app_fee` against the payment `amount`; `root` is the resource key of the
 * request body (`payments`, `subscriptions`, `payment_request`...) for the error's pointer.
 */
export const validateAppFee = (
  root: string,
  amount: number,
  appFee: number
): Result.Result<number, ValidationFailed> =>
  isAppFeeWithinLimit(appFee, amount)
    ? Result.succeed(appFee)
    : Result.fail(invalidField(root, ["app_fee"], APP_FEE_MESSAGE))
