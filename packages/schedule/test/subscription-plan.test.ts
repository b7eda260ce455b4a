import { daysInMonth, fromDayNumber, SUBSCRIPTION_UPCOMING_PAYMENTS_MAX, toDayNumber, unsafeLocalDate } from "@paykit/core"
import type { LocalDate } from "@paykit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  calendarFor,
  chargeDatesFrom,
  dayOfMonthOfDayNumber,
  monthIndexOfDayNumber,
  nominalDay,
  planSubscription,
  scheduleChargeDates
} from "../src/index.ts"
import type { PlanContext, SubscriptionPlan } from "../src/index.ts"
import { contextArb, MANDATE, requestOf, validShapeArb } from "@paykit/schedule/testing"

const d = unsafeLocalDate
const bacs = calendarFor("bacs")

const plan = (body: Record<string, unknown>, ctx: PlanContext): SubscriptionPlan => {
  const r = planSubscription(body, ctx)
  if (Result.isFailure(r)) throw new Error(JSON.stringify(r.failure.errors))
  return r.success
}

const take = <A>(it: Iterable<A>, n: number): Array<A> => {
  const out: Array<A> = []
  if (n <= 0) return out
  for (const a of it) {
    out.push(a)
    if (out.length >= n) break
  }
  return out
}

const planned = fc.tuple(contextArb, validShapeArb).map(([ctx, shape]) => ({ ctx, shape, body: requestOf(shape, ctx) }))

describe("planSubscription: the rules as properties", () => {
  it("every valid request plans; charge dates are business days, strictly increasing, from start_date and the mandate's next possible charge date, before end_date", () => {
    fc.assert(
      fc.property(planned, ({ ctx, body }) => {
        const p = plan(body, ctx)
        const dates = take(scheduleChargeDates(p.schedule, ctx.calendar), 40)
        expect(dates.length).toBeGreaterThan(0)
        expect(dates[0]).toBe(p.upcoming_payments[0]?.charge_date)
        for (const [i, date] of dates.entries()) {
          expect(ctx.calendar.isBusinessDayNumber(toDayNumber(date))).toBe(true)
          expect(date >= p.start_date).toBe(true)
          expect(date >= ctx.next_possible_charge_date).toBe(true)
          if (typeof body["end_date"] === "string") expect(date < body["end_date"]).toBe(true)
          const prev = dates[i - 1]
          if (prev !== undefined) expect(date > prev).toBe(true)
        }
      })
    )
  })

  it("a count gives exactly count charges, and end_date is the last of them", () => {
    fc.assert(
      fc.property(planned.filter(({ body }) => typeof body["count"] === "number"), ({ ctx, body }) => {
        const p = plan(body, ctx)
        const all = [...scheduleChargeDates(p.schedule, ctx.calendar)]
        expect(all.length).toBe(body["count"])
        expect(p.end_date).toBe(all[all.length - 1])
        expect(p.upcoming_payments.length).toBe(Math.min(all.length, SUBSCRIPTION_UPCOMING_PAYMENTS_MAX))
      })
    )
  })

  it("without a count, end_date is reported as given (or null: forever) and upcoming_payments is full", () => {
    fc.assert(
      fc.property(planned.filter(({ body }) => body["count"] === undefined), ({ ctx, body }) => {
        const p = plan(body, ctx)
        expect(p.end_date).toBe(typeof body["end_date"] === "string" ? body["end_date"] : null)
        expect(p.upcoming_payments.map((u) => u.charge_date)).toEqual(take(scheduleChargeDates(p.schedule, ctx.calendar), 10))
        expect(p.upcoming_payments.every((u) => u.amount === body["amount"])).toBe(true)
      })
    )
  })

  it("nominal dates are exactly interval units apart, on the rule's day (clamped to short months)", () => {
    fc.assert(
      fc.property(planned, fc.integer({ min: 0, max: 300 }), ({ ctx, body }, k) => {
        const p = plan(body, ctx)
        const r = p.schedule.recurrence
        const a = nominalDay(r, k)
        const b = nominalDay(r, k + 1)
        const interval = p.interval
        if (r.unit === "weekly") {
          expect(b - a).toBe(7 * interval)
          return
        }
        const months = r.unit === "monthly" ? interval : 12 * interval
        expect(monthIndexOfDayNumber(b) - monthIndexOfDayNumber(a)).toBe(months)
        for (const n of [a, b]) {
          const mi = monthIndexOfDayNumber(n)
          const len = daysInMonth(Math.floor(mi / 12), (mi % 12) + 1)
          expect(dayOfMonthOfDayNumber(n)).toBe(r.day === -1 ? len : Math.min(r.day, len))
        }
        if (typeof body["day_of_month"] === "number") expect(r.day).toBe(body["day_of_month"])
        if (typeof body["month"] === "string" && r.unit === "yearly") {
          expect(monthIndexOfDayNumber(a) % 12).toBe(["january", "february", "march", "april", "may", "june", "july",
            "august", "september", "october", "november", "december"].indexOf(body["month"]))
        }
      })
    )
  })

  it("each charge is its nominal date rolled: forwards, or backwards for day -1, to the nearest business day", () => {
    fc.assert(
      fc.property(planned, ({ ctx, body }) => {
        const p = plan(body, ctx)
        const r = p.schedule.recurrence
        const dates = take(scheduleChargeDates(p.schedule, ctx.calendar), 15)
        for (const [k, date] of dates.entries()) {
          const nominal = nominalDay(r, k)
          const charge = toDayNumber(date)
          const backward = r.unit !== "weekly" && r.day === -1
          if (backward) expect(charge).toBe(ctx.calendar.rollBackwardDay(nominal))
          else expect(charge).toBe(ctx.calendar.rollForwardDay(nominal))
        }
      })
    )
  })

  it("without day_of_month or start_date, start_date is the mandate's next possible charge date (rule 1)", () => {
    fc.assert(
      fc.property(planned.filter(({ body }) => body["day_of_month"] === undefined && body["start_date"] === undefined), ({ ctx, body }) => {
        expect(plan(body, ctx).start_date).toBe(ctx.next_possible_charge_date)
      })
    )
  })

  it("with day_of_month and no start_date, start_date is the first payment's date (rule 2) and the first occurrence of the rule", () => {
    fc.assert(
      fc.property(planned.filter(({ body }) => body["day_of_month"] !== undefined && body["start_date"] === undefined), ({ ctx, body }) => {
        const p = plan(body, ctx)
        expect(p.start_date).toBe(p.upcoming_payments[0]?.charge_date)
        // No earlier occurrence of the rule was chargeable: the one before is before the bound.
        const r = p.schedule.recurrence
        const before = r.unit === "weekly" ? r.anchor - r.stepDays : nominalDay({ ...r, anchor: r.anchor - r.stepMonths }, 0)
        const rolledBefore = r.unit !== "weekly" && r.day === -1 ? ctx.calendar.rollBackwardDay(before) : before
        expect(rolledBefore < toDayNumber(ctx.next_possible_charge_date) || before < toDayNumber(ctx.next_possible_charge_date)).toBe(true)
      })
    )
  })

  it("the cost of the next dates does not depend on age: chargeDatesFrom agrees with walking the whole sequence", () => {
    fc.assert(
      fc.property(planned, fc.integer({ min: 0, max: 4000 }), ({ ctx, body }, offset) => {
        const p = plan(body, ctx)
        const target = toDayNumber(ctx.today) + offset
        const jumped = chargeDatesFrom(p.schedule, ctx.calendar, fromDayNumber(target), 5)
        const walked: Array<LocalDate> = []
        for (const date of scheduleChargeDates(p.schedule, ctx.calendar)) {
          if (toDayNumber(date) >= target) walked.push(date)
          if (walked.length >= 5 || toDayNumber(date) > target + 4000) break
        }
        expect(jumped).toEqual(walked)
      })
    )
  })
})

describe("planSubscription: known answers", () => {
  it("the API's sample: monthly on the 15th from 2024-04-15, count 12, rolled forward over weekends", () => {
    const p = plan(
      { amount: 21279, currency: "GBP", interval_unit: "monthly", day_of_month: 15, start_date: "2024-04-15", count: 12, links: { mandate: MANDATE } },
      { calendar: bacs, today: d("2024-03-22"), next_possible_charge_date: d("2024-03-27") }
    )
    expect(p.upcoming_payments).toEqual(
      ["2024-04-15", "2024-05-15", "2024-06-17", "2024-07-15", "2024-08-15", "2024-09-16", "2024-10-15", "2024-11-15", "2024-12-16", "2025-01-15"]
        .map((charge_date) => ({ charge_date, amount: 21279 }))
    )
    expect(p.start_date).toBe("2024-04-15")
    expect(p.end_date).toBe("2025-03-17") // 2025-03-15 is a Saturday
  })

  it("rule 1: no day_of_month, no start_date: recurs from the next possible charge date", () => {
    const p = plan({ amount: 100, currency: "GBP", interval_unit: "weekly", interval: 2, links: { mandate: MANDATE } },
      { calendar: bacs, today: d("2026-11-21"), next_possible_charge_date: d("2026-11-26") })
    expect(p.start_date).toBe("2026-11-26")
    expect(p.upcoming_payments.slice(0, 4).map((u) => u.charge_date)).toEqual(["2026-11-26", "2026-12-10", "2026-12-24", "2027-01-07"])
    expect(p.end_date).toBeNull()
  })

  it("day_of_month -1 rolls backwards to the last working day of the month", () => {
    const p = plan({ amount: 100, currency: "GBP", interval_unit: "monthly", day_of_month: -1, links: { mandate: MANDATE } },
      { calendar: bacs, today: d("2026-11-21"), next_possible_charge_date: d("2026-11-26") })
    expect(p.start_date).toBe("2026-11-30")
    // 2027-01-31 Sunday, 2027-02-28 Sunday, 2027-05-31 Spring bank holiday, 2027-07-31 Saturday
    expect(p.upcoming_payments.map((u) => u.charge_date)).toEqual(
      ["2026-11-30", "2026-12-31", "2027-01-29", "2027-02-26", "2027-03-31", "2027-04-30", "2027-05-28", "2027-06-30", "2027-07-30", "2027-08-31"]
    )
  })

  it("day -1 whose rolled date would fall before start_date starts a month later", () => {
    const p = plan({ amount: 100, currency: "GBP", interval_unit: "monthly", day_of_month: -1, start_date: "2027-01-31", links: { mandate: MANDATE } },
      { calendar: bacs, today: d("2026-11-21"), next_possible_charge_date: d("2026-11-26") })
    expect(p.upcoming_payments[0]?.charge_date).toBe("2027-02-26")
  })

  it("a start date on the 31st keeps the 31st in long months and clamps in short ones", () => {
    const p = plan({ amount: 100, currency: "GBP", interval_unit: "monthly", start_date: "2026-12-31", links: { mandate: MANDATE } },
      { calendar: bacs, today: d("2026-11-21"), next_possible_charge_date: d("2026-11-26") })
    // Jan 31 2027 is a Sunday (-> Feb 1), Feb 28 a Sunday (-> Mar 1), Apr 30 a Friday, Mar 31, May 31 holiday (-> Jun 1)
    expect(p.upcoming_payments.slice(0, 6).map((u) => u.charge_date)).toEqual(
      ["2026-12-31", "2027-02-01", "2027-03-01", "2027-03-31", "2027-04-30", "2027-06-01"]
    )
  })

  it("yearly on a month and day: the first such date on or after the next possible charge date", () => {
    const p = plan({ amount: 100, currency: "GBP", interval_unit: "yearly", month: "january", day_of_month: 1, links: { mandate: MANDATE } },
      { calendar: bacs, today: d("2026-11-21"), next_possible_charge_date: d("2026-11-26") })
    // 1 January is always a bank holiday: 2027-01-01 Friday -> Monday 4th; 2028-01-01 Saturday -> Tuesday 4th (3rd substitute)
    expect(p.start_date).toBe("2027-01-04")
    expect(p.upcoming_payments.slice(0, 2).map((u) => u.charge_date)).toEqual(["2027-01-04", "2028-01-04"])
  })

  it("a start date on 29 February recurs yearly on 28 February, and on the 29th again in leap years", () => {
    const p = plan({ amount: 100, currency: "EUR", interval_unit: "yearly", start_date: "2028-02-29", links: { mandate: MANDATE } },
      { calendar: calendarFor("sepa_core"), today: d("2027-03-01"), next_possible_charge_date: d("2027-03-04") })
    expect(p.upcoming_payments.slice(0, 5).map((u) => u.charge_date)).toEqual(
      ["2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-03-01"] // 2032-02-29 is a Sunday
    )
  })
})

describe("planSubscription: every date it accepts is a date a LocalDate can hold", () => {
  const ctx: PlanContext = { calendar: bacs, today: d("2026-11-24"), next_possible_charge_date: d("2026-11-27") }
  const base = { amount: 1500, currency: "GBP", links: { mandate: MANDATE } }

  it("a count or an interval that would reach past 9999-12-31 is refused on that field, and anything accepted ends by then", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("weekly", "monthly", "yearly"),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
        (interval_unit, count, interval) => {
          const result = planSubscription({ ...base, interval_unit, count, ...(interval === undefined ? {} : { interval }) }, ctx)
          if (Result.isSuccess(result)) {
            expect(result.success.end_date).not.toBeNull()
            expect(String(result.success.end_date) <= "9999-12-31").toBe(true)
            expect(String(result.success.end_date)).toMatch(/^\d{4}-\d{2}-\d{2}$/)
          } else {
            const fields = result.failure.errors.map((e) => e.field)
            expect(fields.some((f) => f === "count" || f === "interval")).toBe(true)
          }
        }
      )
    )
  })

  it("the fuzzer's monthly subscription of 7,897,395 payments (ending in year 660143) is refused on count", () => {
    const result = planSubscription({ ...base, interval_unit: "monthly", day_of_month: 5, count: 7_897_395 }, ctx)
    expect(Result.isFailure(result) && result.failure.errors.map((e) => e.field)).toEqual(["count"])
  })

  it("an interval whose second payment falls after 9999-12-31 is refused on interval, with or without a count", () => {
    for (const count of [undefined, 2]) {
      const result = planSubscription({ ...base, interval_unit: "yearly", interval: 9000, ...(count === undefined ? {} : { count }) }, ctx)
      expect(Result.isFailure(result) && result.failure.errors.map((e) => e.field)).toEqual(["interval"])
    }
  })
})
