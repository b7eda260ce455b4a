import { addMonths, decodeInput, fieldError, LAST_DAY_NUMBER, toDayNumber, validationFailed } from "@paykit/core"
import type { FieldError, LocalDate, ValidationFailed } from "@paykit/core"
import { Result } from "effect"
import type { DayCalendar } from "./charge-dates.ts"
import { dayOfMonthOfDayNumber, formatDayNumber, monthIndexOfDayNumber } from "./charge-dates.ts"
import type { Recurrence } from "./subscription-recurrence.ts"
import { chargeDay, nominalDay } from "./subscription-recurrence.ts"
import { crossFieldErrors, monthNumber, SubscriptionCreateRequest, SUBSCRIPTIONS_ROOT } from "./subscription-request.ts"
import type { SubscriptionSchedule, UpcomingPayment } from "./subscription-schedule.ts"
import { reportedEndDate, upcomingPayments } from "./subscription-schedule.ts"

/** What planning needs besides the request: the scheme's calendar, today, and the mandate. */
export interface PlanContext {
  readonly calendar: DayCalendar
  readonly today: LocalDate
  /** The mandate's `next_possible_charge_date`. */
  readonly next_possible_charge_date: LocalDate
}

/** A planned subscription: the fields the API reports, and the schedule to store. */
export interface SubscriptionPlan {
  readonly request: SubscriptionCreateRequest
  /** The date of the first payment (spec rules 1 and 2), or `start_date` as given. */
  readonly start_date: LocalDate
  readonly end_date: LocalDate | null
  readonly interval: number
  readonly upcoming_payments: ReadonlyArray<UpcomingPayment>
  readonly schedule: SubscriptionSchedule
}

const decodeCreate = decodeInput(SubscriptionCreateRequest, SUBSCRIPTIONS_ROOT)

const err = (field: string, message: string): FieldError => fieldError(SUBSCRIPTIONS_ROOT, [field], message)

/**
 * Occurrence 0: the first nominal date on or after `bound` that the rule allows. With `day_of_month`
 * (and `month`) the phase comes from the rule; without, the recurrence is anchored on `bound`
 * itself (spec rule 1: the mandate's next possible charge date, or the `start_date` given).
 */
const compile = (r: SubscriptionCreateRequest, bound: number): Recurrence => {
  const interval = r.interval ?? 1
  if (r.interval_unit === "weekly") return { unit: "weekly", anchor: bound, stepDays: 7 * interval }
  const boundMonth = monthIndexOfDayNumber(bound)
  const dayOfMonth = r.day_of_month ?? null
  if (r.interval_unit === "monthly") {
    if (dayOfMonth === null) {
      return { unit: "monthly", anchor: boundMonth, stepMonths: interval, day: dayOfMonthOfDayNumber(bound) }
    }
    const rec: Recurrence = { unit: "monthly", anchor: boundMonth, stepMonths: interval, day: dayOfMonth }
    return nominalDay(rec, 0) >= bound ? rec : { ...rec, anchor: boundMonth + 1 }
  }
  const stepMonths = 12 * interval
  const month = r.month ?? null
  if (month === null || dayOfMonth === null) {
    return { unit: "yearly", anchor: boundMonth, stepMonths, day: dayOfMonthOfDayNumber(bound) }
  }
  const boundYear = Math.floor(boundMonth / 12)
  const rec: Recurrence = { unit: "yearly", anchor: boundYear * 12 + monthNumber(month) - 1, stepMonths, day: dayOfMonth }
  return nominalDay(rec, 0) >= bound ? rec : { ...rec, anchor: rec.anchor + 12 }
}

/**
 * Plans a subscription from an untrusted create request: decodes it, applies the spec's
 * recurrence rules and the real API's date rules, and returns the resolved `start_date`,
 * `end_date`, `upcoming_payments` and the schedule. Every failure is a `ValidationFailed` naming
 * its fields under `/subscriptions`.
 */
export const planSubscription = (input: unknown, context: PlanContext): Result.Result<SubscriptionPlan, ValidationFailed> => {
  const decoded = decodeCreate(input)
  return Result.isFailure(decoded) ? Result.fail(decoded.failure) : planSubscriptionRequest(decoded.success, context)
}

/** `planSubscription` of a request already decoded (at the edge, by the engine's caller). */
export const planSubscriptionRequest = (request: SubscriptionCreateRequest, context: PlanContext): Result.Result<SubscriptionPlan, ValidationFailed> => {
  const crossField = crossFieldErrors(request)
  if (crossField.length > 0) return Result.fail(validationFailed(crossField))

  const { calendar } = context
  const npcd = toDayNumber(context.next_possible_charge_date)
  const startGiven = request.start_date ?? null
  const dateErrors: Array<FieldError> = []
  if (startGiven !== null) {
    if (toDayNumber(startGiven) < npcd) {
      dateErrors.push(err("start_date", `must be on or after the mandate's next_possible_charge_date (${context.next_possible_charge_date})`))
    }
    // "The first payment must be charged within 1 year": a start date beyond a year from today.
    const yearAhead = addMonths(context.today, 12)
    if (startGiven > yearAhead) dateErrors.push(err("start_date", `must be no later than ${yearAhead}, a year from today`))
  }
  if (dateErrors.length > 0) return Result.fail(validationFailed(dateErrors))

  const bound = startGiven === null ? npcd : toDayNumber(startGiven)
  let recurrence = compile(request, bound)
  // A last-day-of-month date rolled backwards can land before the bound (the 31st a Saturday,
  // the start date that 31st): that occurrence cannot be charged, the next one is the first.
  if (chargeDay(recurrence, calendar, 0) < bound) {
    recurrence = { ...recurrence, anchor: recurrence.unit === "weekly" ? recurrence.anchor + recurrence.stepDays : recurrence.anchor + recurrence.stepMonths }
  }
  const firstCharge = chargeDay(recurrence, calendar, 0)
  const endGiven = request.end_date ?? null
  if (endGiven !== null && toDayNumber(endGiven) <= firstCharge) {
    return Result.fail(validationFailed([err("end_date", `must be after the first charge date (${formatDayNumber(firstCharge)})`)]))
  }
  const count = request.count ?? null
  // A count whose last payment falls past the last day a date can hold could never be stored or charged.
  if (count !== null && chargeDay(recurrence, calendar, count - 1) > LAST_DAY_NUMBER) {
    return Result.fail(validationFailed([err("count", `is too large: the last payment would fall after ${formatDayNumber(LAST_DAY_NUMBER)}`)]))
  }
  const schedule: SubscriptionSchedule = {
    recurrence,
    fromIndex: 0,
    endIndex: count,
    endDay: endGiven === null ? null : toDayNumber(endGiven),
    pause: { kind: "active" }
  }
  const start_date = startGiven ?? formatDayNumber(firstCharge)
  return Result.succeed({
    request,
    start_date,
    end_date: reportedEndDate(schedule, calendar),
    interval: request.interval ?? 1,
    upcoming_payments: upcomingPayments(schedule, calendar, formatDayNumber(firstCharge), request.amount),
    schedule
  })
}
