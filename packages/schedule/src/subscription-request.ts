import {
  Amount,
  Currency,
  fieldError,
  InputDate,
  LocalDate,
  Metadata,
  PositiveAmount,
  ResourceId,
  SUBSCRIPTION_NAME_MAX_LENGTH
} from "@paykit/core"
import type { FieldError } from "@paykit/core"
import { APP_FEE_MESSAGE, isAppFeeWithinLimit } from "@paykit/money"
import { Schema, SchemaGetter } from "effect"

/** The resource key of subscription request bodies: every request pointer starts `/subscriptions`. */
export const SUBSCRIPTIONS_ROOT = "subscriptions"

export const INTERVAL_UNITS = ["weekly", "monthly", "yearly"] as const
export type IntervalUnit = (typeof INTERVAL_UNITS)[number]

export const MONTHS = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december"
] as const
export type Month = (typeof MONTHS)[number]

/** 1-based month number of a month name. */
export const monthNumber = (m: Month): number => MONTHS.indexOf(m) + 1

/** The largest `interval` per unit that still charges at least once a year (spec: `interval`). */
export const MAX_INTERVAL_PER_UNIT: Readonly<Record<IntervalUnit, number>> = { weekly: 52, monthly: 12, yearly: 1 }

/**
 * The spec types these counts `string or integer`: "12" and 12 both decode to 12; anything else,
 * a fraction or text, is a validation error at the field, and so is a value failing `check`.
 */
const integerLike = (check: (n: number) => boolean, message: string) =>
  Schema.Union([Schema.Number, Schema.String]).pipe(
    Schema.decodeTo(
      Schema.Number.check(Schema.makeFilter((n: number) => Number.isSafeInteger(n) && check(n), { message })),
      {
        decode: SchemaGetter.transform((u: number | string) =>
          typeof u === "number" ? u : /^-?\d+$/.test(u) ? Number(u) : Number.NaN),
        encode: SchemaGetter.transform((n: number) => n)
      }
    )
  )

const Interval = integerLike((n) => n >= 1, "must be a whole number, 1 or more")
const Count = integerLike((n) => n >= 1, "must be a whole number, 1 or more")
const DayOfMonth = integerLike((n) => (n >= 1 && n <= 28) || n === -1, "must be from 1 to 28, or -1 for the last day of the month")
/** `pause_cycles`: "a non zero positive value". */
export const PauseCycles = integerLike((n) => n >= 1, "must be a whole number, 1 or more")

const Name = Schema.String.check(
  Schema.makeFilter((s: string) => s.length <= SUBSCRIPTION_NAME_MAX_LENGTH, {
    message: `must be at most ${SUBSCRIPTION_NAME_MAX_LENGTH} characters`
  })
)


/**
 * The fields every subscription request shares: POST /subscriptions and a billing request's
 * `subscription_request` (the real API's `BillingRequestSubscriptionRequest` has these and no
 * `end_date` or `links`). Declared once so both decode `"12"` and 12 alike and apply one rule.
 */
const SubscriptionRequestFields = {
  amount: PositiveAmount,
  currency: Currency,
  interval_unit: Schema.Literals(INTERVAL_UNITS),
  interval: Schema.optionalKey(Interval),
  day_of_month: Schema.optionalKey(Schema.NullOr(DayOfMonth)),
  month: Schema.optionalKey(Schema.NullOr(Schema.Literals(MONTHS))),
  start_date: Schema.optionalKey(Schema.NullOr(InputDate)),
  count: Schema.optionalKey(Schema.NullOr(Count)),
  name: Schema.optionalKey(Schema.NullOr(Name)),
  payment_reference: Schema.optionalKey(Schema.NullOr(Schema.String)),
  app_fee: Schema.optionalKey(Schema.NullOr(Amount)),
  metadata: Schema.optionalKey(Metadata),
  retry_if_possible: Schema.optionalKey(Schema.Boolean)
}

/** A billing request's `subscription_request`: the shared fields. */
export const SubscriptionRequest = Schema.Struct(SubscriptionRequestFields).annotate({ identifier: "SubscriptionRequest" })
export type SubscriptionRequest = typeof SubscriptionRequest.Type

/**
 * A subscription request with every field settled: null where it was left out, and the API's
 * defaults applied (an interval of 1, no retry, no metadata). The one list of the shared fields as a
 * billing request stores its `subscription_request` and as a subscription starts from its request.
 */
export const settleSubscriptionRequest = (r: SubscriptionRequest) => ({
  amount: r.amount,
  app_fee: r.app_fee ?? null,
  count: r.count ?? null,
  currency: r.currency,
  day_of_month: r.day_of_month ?? null,
  interval: r.interval ?? 1,
  interval_unit: r.interval_unit,
  metadata: r.metadata ?? {},
  month: r.month ?? null,
  name: r.name ?? null,
  payment_reference: r.payment_reference ?? null,
  retry_if_possible: r.retry_if_possible ?? false,
  start_date: r.start_date ?? null
})
export type SettledSubscriptionRequest = ReturnType<typeof settleSubscriptionRequest>

/** The body of POST /subscriptions (below its `subscriptions` key), with the real API's names. */
export const SubscriptionCreateRequest = Schema.Struct({
  ...SubscriptionRequestFields,
  end_date: Schema.optionalKey(Schema.NullOr(InputDate)),
  links: Schema.Struct({ mandate: ResourceId("MD") })
})
export type SubscriptionCreateRequest = typeof SubscriptionCreateRequest.Type

/** The body of POST /subscriptions/:id/actions/pause. */
export const SubscriptionPauseRequest = Schema.Struct({
  pause_cycles: Schema.optionalKey(Schema.NullOr(PauseCycles)),
  metadata: Schema.optionalKey(Metadata)
})
export type SubscriptionPauseRequest = typeof SubscriptionPauseRequest.Type

/** The body of POST /subscriptions/:id/actions/resume. */
export const SubscriptionResumeRequest = Schema.Struct({
  metadata: Schema.optionalKey(Metadata)
})
export type SubscriptionResumeRequest = typeof SubscriptionResumeRequest.Type

const given = <A>(v: A | null | undefined): v is A => v !== null && v !== undefined

/** A problem with one field of a subscription request, at a path relative to the request. */
export interface SubscriptionRequestIssue {
  readonly path: ReadonlyArray<string>
  readonly message: string
}

const at = (field: string, message: string): SubscriptionRequestIssue => ({ path: [field], message })

/** The spec's table of `month` and `day_of_month` per `interval_unit`, each failure at its field. */
const recurrenceIssues = (r: SubscriptionRequest): ReadonlyArray<SubscriptionRequestIssue> => {
  const hasMonth = given(r.month)
  const hasDay = given(r.day_of_month)
  switch (r.interval_unit) {
    case "weekly":
      return [
        ...(hasMonth ? [at("month", "must be blank for weekly subscriptions")] : []),
        ...(hasDay ? [at("day_of_month", "must be blank for weekly subscriptions")] : [])
      ]
    case "monthly":
      return hasMonth ? [at("month", "must be blank for monthly subscriptions")] : []
    case "yearly":
      return hasMonth && !hasDay
        ? [at("day_of_month", "is required when month is given")]
        : hasDay && !hasMonth ? [at("month", "is required when day_of_month is given")] : []
  }
}

/**
 * The rules between fields of a decoded subscription request that need no mandate or date
 * context: the table of `month` and `day_of_month` per `interval_unit`, at least one charge per
 * year, `count` excluding `end_date`, and the app fee limit (`@paykit/money`'s). Every failure
 * names its field; a billing request moves them below `subscription_request`.
 */
export const subscriptionRequestIssues = (
  r: SubscriptionRequest & { readonly end_date?: LocalDate | null | undefined }
): ReadonlyArray<SubscriptionRequestIssue> => {
  const issues: Array<SubscriptionRequestIssue> = [...recurrenceIssues(r)]
  const max = MAX_INTERVAL_PER_UNIT[r.interval_unit]
  if ((r.interval ?? 1) > max) {
    issues.push(at("interval", `must give at least one charge per year: at most ${max} for ${r.interval_unit} subscriptions`))
  }
  if (given(r.count) && given(r.end_date)) issues.push(at("end_date", "must be blank when count is given"))
  if (given(r.app_fee) && !isAppFeeWithinLimit(r.app_fee, r.amount)) issues.push(at("app_fee", APP_FEE_MESSAGE))
  return issues
}

/** The cross-field rules of POST /subscriptions as the error items of its `ValidationFailed`. */
export const crossFieldErrors = (r: SubscriptionCreateRequest): ReadonlyArray<FieldError> =>
  subscriptionRequestIssues(r).map((i) => fieldError(SUBSCRIPTIONS_ROOT, i.path, i.message))
