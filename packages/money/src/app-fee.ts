import { APP_FEE_MAX_BASIS_POINTS, type ValidationFailed, invalidField } from "@paykit/core"
import { Result } from "effect"
import { BASIS_POINTS_PER_UNIT } from "./fee-schedule.ts"

/**
 * App fees: charged by a partner app on a payment it creates, deducted from the merchant's
 * proceeds and credited to the partner. At most 50% of the payment amount
 * (`APP_FEE_MAX_BASIS_POINTS`).
 */

/** The largest app fee allowed on a payment of `amount`: floor(amount x 50%). */
export const maxAppFee = (amount: number): number =>
  Number((BigInt(amount) * BigInt(APP_FEE_MAX_BASIS_POINTS)) / BigInt(BASIS_POINTS_PER_UNIT))

/** The message of the `app_fee` error, as the limit reads in the spec. */
export const APP_FEE_TOO_HIGH_MESSAGE = `must be at most ${APP_FEE_MAX_BASIS_POINTS / 100}% of the payment amount`

/**
 * Checks a decoded `app_fee` against the payment `amount`; `root` is the resource key of the
 * request body (`payments`, `subscriptions`, `payment_request`...) for the error's pointer.
 */
export const validateAppFee = (
  root: string,
  amount: number,
  appFee: number
): Result.Result<number, ValidationFailed> =>
  appFee <= maxAppFee(amount)
    ? Result.succeed(appFee)
    : Result.fail(invalidField(root, ["app_fee"], APP_FEE_TOO_HIGH_MESSAGE))
