/**
 * fast-check arbitraries for property tests of scheduling rules (`@paykit/schedule/testing`;
 * fast-check is an optional peer): calendars, scheme dates, planning contexts and subscription
 * requests valid by construction.
 */
import { addDays, addMonths, fromDayNumber, makeLocalDate, toDayNumber } from "@paykit/core"
import type { LocalDate } from "@paykit/core"
import fc from "fast-check"
import { calendarFor, MAX_INTERVAL_PER_UNIT, MONTHS, nextPossibleChargeDateOn } from "./index.ts"
import type { BusinessCalendar, IntervalUnit, PlanContext } from "./index.ts"

/** Calendars with different holiday rules: England and Wales, TARGET, and the Australian one. */
export const CALENDARS: ReadonlyArray<BusinessCalendar> = [calendarFor("bacs"), calendarFor("sepa_core"), calendarFor("becs")]

export const MANDATE = "MD0000000000AB"

export const dateBetween = (from: LocalDate, to: LocalDate): fc.Arbitrary<LocalDate> =>
  fc.integer({ min: toDayNumber(from), max: toDayNumber(to) }).map(fromDayNumber)

/** A day to plan on, the calendar, and the mandate's next possible charge date (0 to 5 days' notice). */
export const contextArb: fc.Arbitrary<PlanContext> = fc
  .record({
    today: dateBetween(makeLocalDate(2015, 1, 1), makeLocalDate(2035, 12, 31)),
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
    const cap = addMonths(ctx.today, 12)
    body["start_date"] = start > cap ? cap : start
  }
  if (shape.count !== undefined) body["count"] = shape.count
  if (shape.endOffset !== undefined) body["end_date"] = addDays(ctx.next_possible_charge_date, shape.endOffset)
  return body
}


/** Business days of `calendar` between two dates (a date off the calendar moves to the next business day). */
export const schemeDateArb = (calendar: BusinessCalendar, from: LocalDate, to: LocalDate): fc.Arbitrary<LocalDate> =>
  dateBetween(from, to).map((d) => (calendar.isBusinessDay(d) ? d : calendar.addBusinessDays(d, 1)))

/** A planning context and a subscription request body valid in it by construction (`planSubscription` accepts it). */
export const subscriptionRequestArb: fc.Arbitrary<{ readonly context: PlanContext; readonly request: Record<string, unknown> }> = fc
  .tuple(contextArb, validShapeArb, fc.integer({ min: 1, max: 1_000_000 }))
  .map(([context, shape, amount]) => ({ context, request: requestOf(shape, context, amount) }))
