/**
 * fast-check arbitraries for property tests of scheduling rules (`@paykit/schedule/testing`;
 * fast-check is an optional peer): calendars, business days and bank holidays, planning contexts
 * and subscription requests valid by construction. Dates are `YYYY-MM-DD` text (no casts): each is
 * checked by `localDate` of @paykit/core. docs/property-testing.md shows them at work.
 */
import { addDays, addMonths, dateParts, localDate } from "@paykit/core"
import type { LocalDate } from "@paykit/core"
import { localDateArb } from "@paykit/core/testing"
import fc from "fast-check"
import { calendarFor, CALENDAR_NAMES, MAX_INTERVAL_PER_UNIT, MONTHS, nextPossibleChargeDateOn } from "./index.ts"
import type { BusinessCalendar, IntervalUnit, PlanContext } from "./index.ts"

/** Calendars with different holiday rules: England and Wales, TARGET, and the Australian one. */
export const CALENDARS: ReadonlyArray<BusinessCalendar> = [calendarFor("bacs"), calendarFor("sepa_core"), calendarFor("becs")]

/** Every calendar of every scheme, once each (Bacs and Faster Payments share one, as the SEPA schemes do). */
export const ALL_CALENDARS: ReadonlyArray<BusinessCalendar> = [...new Set(CALENDAR_NAMES.map(calendarFor))]

/** Any of `ALL_CALENDARS`. */
export const calendarArb: fc.Arbitrary<BusinessCalendar> = fc.constantFrom(...ALL_CALENDARS)

export const MANDATE = "MD0000000000AB"

/** Every date from `from` to `to`, both included: `localDateArb` of @paykit/core/testing. */
export const dateBetween = (from: string, to: string): fc.Arbitrary<LocalDate> => localDateArb(from, to)

/** A planning context whose calendar is a whole `BusinessCalendar`, so a property can ask it about dates. */
export interface CalendarPlanContext extends PlanContext {
  readonly calendar: BusinessCalendar
}

/** A day to plan on (2015-2035), the calendar, and the mandate's next possible charge date (0 to 5 days' notice). */
export const contextArb: fc.Arbitrary<CalendarPlanContext> = fc
  .record({
    today: dateBetween("2015-01-01", "2035-12-31"),
    calendar: fc.constantFrom(...CALENDARS),
    notice: fc.integer({ min: 0, max: 5 })
  })
  .map(({ today, calendar, notice }) => ({ calendar, today, next_possible_charge_date: nextPossibleChargeDateOn(calendar, today, notice) }))

export interface RequestShape {
  readonly interval_unit: IntervalUnit
  readonly interval: number | undefined
  readonly day_of_month: number | undefined
  readonly month: (typeof MONTHS)[number] | undefined
  readonly startOffset: number | undefined
  readonly count: number | undefined
  readonly endOffset: number | undefined
}

const dayOfMonthArb = fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant(-1))

/** The valid shapes of the table: month only with yearly and then with day_of_month, and so on. */
export const validShapeArb: fc.Arbitrary<RequestShape> = fc
  .constantFrom<IntervalUnit>("weekly", "monthly", "yearly")
  .chain((unit) =>
    fc.record({
      interval_unit: fc.constant(unit),
      interval: fc.option(fc.integer({ min: 1, max: MAX_INTERVAL_PER_UNIT[unit] }), { nil: undefined }),
      rule:
        unit === "weekly"
          ? fc.constant({ day_of_month: undefined, month: undefined })
          : unit === "monthly"
            ? fc.record({ day_of_month: fc.option(dayOfMonthArb, { nil: undefined }), month: fc.constant(undefined) })
            : fc.option(fc.record({ day_of_month: dayOfMonthArb, month: fc.constantFrom(...MONTHS) }), { nil: undefined })
                .map((r) => r ?? { day_of_month: undefined, month: undefined }),
      startOffset: fc.option(fc.integer({ min: 0, max: 360 }), { nil: undefined }),
      end: fc.oneof(
        fc.constant({ count: undefined, endOffset: undefined }),
        fc.record({ count: fc.integer({ min: 1, max: 40 }), endOffset: fc.constant(undefined) }),
        fc.record({ count: fc.constant(undefined), endOffset: fc.integer({ min: 800, max: 3000 }) })
      )
    })
  )
  .map((r) => ({
    interval_unit: r.interval_unit,
    interval: r.interval,
    day_of_month: r.rule.day_of_month,
    month: r.rule.month,
    startOffset: r.startOffset,
    count: r.end.count,
    endOffset: r.end.endOffset
  }))

/** The request body of a shape, dated against a context; `start_date` is `startOffset` days after the mandate's next possible charge date, capped at a year from today. */
export const requestOf = (shape: RequestShape, ctx: PlanContext, amount = 1500): Record<string, unknown> => {
  const body: Record<string, unknown> = { amount, currency: "GBP", interval_unit: shape.interval_unit, links: { mandate: MANDATE } }
  if (shape.interval !== undefined) body["interval"] = shape.interval
  if (shape.day_of_month !== undefined) body["day_of_month"] = shape.day_of_month
  if (shape.month !== undefined) body["month"] = shape.month
  if (shape.startOffset !== undefined) {
    const start = addDays(ctx.next_possible_charge_date, shape.startOffset)
    const cap = latestStartDate(ctx)
    body["start_date"] = start > cap ? cap : start
  }
  if (shape.count !== undefined) body["count"] = shape.count
  if (shape.endOffset !== undefined) body["end_date"] = addDays(ctx.next_possible_charge_date, shape.endOffset)
  return body
}


/** Business days of `calendar` from `from` to `to` (a date off the calendar moves to the next business day). */
export const schemeDateArb = (calendar: BusinessCalendar, from: string, to: string): fc.Arbitrary<LocalDate> =>
  dateBetween(from, to).map((d) => (calendar.isBusinessDay(d) ? d : calendar.addBusinessDays(d, 1)))

/** The bank holidays of `calendar` from `from` to `to`, both included: its closing days that fall on weekdays, in order. */
export const holidaysBetween = (calendar: BusinessCalendar, from: string, to: string): ReadonlyArray<LocalDate> => {
  const [first, last] = [localDate(from), localDate(to)]
  const years = Array.from({ length: dateParts(last).year - dateParts(first).year + 1 }, (_, i) => dateParts(first).year + i)
  return years.flatMap((year) => calendar.holidays(year)).filter((d) => d >= first && d <= last)
}

/**
 * A bank holiday of `calendar` from `from` to `to` (a closing weekday, where a charge date must
 * roll); a `RangeError` when the range holds none, which happens: TARGET had no weekday closing
 * day from 12 April 2021 to 11 April 2022. Check `holidaysBetween` first where a range may be empty.
 */
export const holidayArb = (calendar: BusinessCalendar, from: string, to: string): fc.Arbitrary<LocalDate> => {
  const holidays = holidaysBetween(calendar, from, to)
  if (holidays.length === 0) throw new RangeError(`holidayArb: ${calendar.name} has no holiday from ${from} to ${to}`)
  return fc.constantFrom(...holidays)
}

/** A planning context and a subscription request body valid in it by construction (`planSubscription` accepts it). */
export const subscriptionRequestArb: fc.Arbitrary<{ readonly context: CalendarPlanContext; readonly request: Record<string, unknown> }> = fc
  .tuple(contextArb, validShapeArb, fc.integer({ min: 1, max: 1_000_000 }))
  .map(([context, shape, amount]) => ({ context, request: requestOf(shape, context, amount) }))

/** The latest `start_date` a request planned on `context` may give: a year from today (`addMonths(today, 12)`). */
export const latestStartDate = (context: PlanContext): LocalDate => addMonths(context.today, 12)
