import { Schema } from "effect"
import { Amount, Currency, LocalDate, Metadata, SUBSCRIPTION_NAME_MAX_LENGTH } from "@paykit/core"
import { appFeeIssues } from "./app-fee.ts"
import { optionalNullable, PositiveAmount, PositiveInteger, stringUpTo } from "./fields.ts"
import { type RuleIssue, issue } from "./rules.ts"

/** Billing request `subscription_request` (supported only for ACH and PAD mandates). */

export const INTERVAL_UNITS = ["weekly", "monthly", "yearly"] as const
export type IntervalUnit = (typeof INTERVAL_UNITS)[number]

export const MONTHS = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december"
] as const

/** The day of the month a subscription charges on: 1 to 28, or -1 for the last day. */
export const DayOfMonth = Schema.Number.check(
  Schema.makeFilter((n: number) => n === -1 || (Number.isInteger(n) && n >= 1 && n <= 28), {
    expected: "1 to 28 or -1",
    message: "must be a whole number from 1 to 28, or -1 for the last day of the month"
  })
).annotate({ identifier: "DayOfMonth" })

export const SubscriptionRequest = Schema.Struct({
  amount: PositiveAmount,
  currency: Currency,
  interval_unit: Schema.Literals(INTERVAL_UNITS),
  interval: Schema.optionalKey(PositiveInteger),
  day_of_month: optionalNullable(DayOfMonth),
  month: Schema.optionalKey(Schema.Literals(MONTHS)),
  count: optionalNullable(PositiveInteger),
  name: optionalNullable(stringUpTo(SUBSCRIPTION_NAME_MAX_LENGTH)),
  payment_reference: optionalNullable(Schema.String),
  app_fee: optionalNullable(Amount),
  retry_if_possible: Schema.optionalKey(Schema.Boolean),
  start_date: optionalNullable(LocalDate),
  metadata: Schema.optionalKey(Metadata)
}).annotate({ identifier: "SubscriptionRequest" })
export type SubscriptionRequest = typeof SubscriptionRequest.Type

/**
 * The largest `interval` per unit that still charges at least once a year (52 weeks is 364 days;
 * 53 weeks would skip a year).
 */
export const MAX_INTERVAL: Readonly<Record<IntervalUnit, number>> = { weekly: 52, monthly: 12, yearly: 1 }

/**
 * The spec's table of `interval_unit`, `month` and `day_of_month`: yearly takes both or neither
 * (a month needs a day and a day needs a month), monthly takes a day but no month, weekly neither.
 */
export const recurrenceIssues = (s: {
  readonly interval_unit: IntervalUnit
  readonly month?: string | undefined
  readonly day_of_month?: number | null | undefined
  readonly interval?: number | undefined
}): ReadonlyArray<RuleIssue> => {
  const hasMonth = s.month !== undefined
  const hasDay = s.day_of_month !== undefined && s.day_of_month !== null
  const issues: Array<RuleIssue> = []
  switch (s.interval_unit) {
    case "yearly":
      if (hasMonth && !hasDay) issues.push(issue(["day_of_month"], "is required when month is given"))
      if (hasDay && !hasMonth) issues.push(issue(["month"], "is required when day_of_month is given for yearly subscriptions"))
      break
    case "monthly":
      if (hasMonth) issues.push(issue(["month"], "must not be given for monthly subscriptions"))
      break
    case "weekly":
      if (hasMonth) issues.push(issue(["month"], "must not be given for weekly subscriptions"))
      if (hasDay) issues.push(issue(["day_of_month"], "must not be given for weekly subscriptions"))
      break
  }
  if (s.interval !== undefined && s.interval > MAX_INTERVAL[s.interval_unit]) {
    issues.push(issue(["interval"], `must give at least one charge per year (at most ${MAX_INTERVAL[s.interval_unit]} for ${s.interval_unit})`))
  }
  return issues
}

/** Every cross-field rule of a subscription request; paths relative to it. */
export const subscriptionRequestIssues = (s: SubscriptionRequest): ReadonlyArray<RuleIssue> => [
  ...recurrenceIssues(s),
  ...appFeeIssues(["app_fee"], s.app_fee, s.amount)
]
