import { APP_FEE_MAX_BASIS_POINTS } from "@paykit/core"
import { type RuleIssue, issue } from "./rules.ts"

const BASIS_POINTS_PER_WHOLE = 10_000n

/**
 * Whether `appFee` is at most `APP_FEE_MAX_BASIS_POINTS` of `amount` (50%). Compared exactly as
 * `appFee * 10000 <= amount * 5000` in bigint: the products of two safe integers overflow 2^53,
 * and a division would round.
 */
export const isAppFeeWithinLimit = (appFee: number, amount: number): boolean =>
  BigInt(appFee) * BASIS_POINTS_PER_WHOLE <= BigInt(amount) * BigInt(APP_FEE_MAX_BASIS_POINTS)

export const APP_FEE_MESSAGE = `must be at most ${APP_FEE_MAX_BASIS_POINTS / 100}% of the amount`

/** The issue at `path` when the fee is above the limit, none otherwise (or when there is no fee). */
export const appFeeIssues = (
  path: ReadonlyArray<PropertyKey>,
  appFee: number | null | undefined,
  amount: number
): ReadonlyArray<RuleIssue> =>
  appFee === null || appFee === undefined || isAppFeeWithinLimit(appFee, amount) ? [] : [issue(path, APP_FEE_MESSAGE)]
