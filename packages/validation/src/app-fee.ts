import { APP_FEE_MESSAGE, isAppFeeWithinLimit } from "@paykit/money"
import { type RuleIssue, issue } from "./rules.ts"

/**
 * The app fee limit as a cross-field rule: the issue at `path` when the fee is above the limit,
 * none otherwise (or when there is no fee). The limit and its message are `@paykit/money`'s.
 */
export const appFeeIssues = (
  path: ReadonlyArray<PropertyKey>,
  appFee: number | null | undefined,
  amount: number
): ReadonlyArray<RuleIssue> =>
  appFee === null || appFee === undefined || isAppFeeWithinLimit(appFee, amount) ? [] : [issue(path, APP_FEE_MESSAGE)]
