import { unsafeLocalDate } from "@paykit/core"
import { APP_FEE_MESSAGE } from "@paykit/money"
import type { ValidationFailed } from "@paykit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { calendarFor, MAX_INTERVAL_PER_UNIT, MONTHS, planSubscription } from "../src/index.ts"
import type { IntervalUnit, PlanContext } from "../src/index.ts"
import { MANDATE } from "@paykit/schedule/testing"

const ctx: PlanContext = {
  calendar: calendarFor("bacs"),
  today: unsafeLocalDate("2026-11-21"),
  next_possible_charge_date: unsafeLocalDate("2026-11-26")
}

const base = (unit: IntervalUnit): Record<string, unknown> => ({ amount: 1000, currency: "GBP", interval_unit: unit, links: { mandate: MANDATE } })

const failure = (body: Record<string, unknown>): ValidationFailed => {
  const r = planSubscription(body, ctx)
  if (Result.isSuccess(r)) throw new Error(`expected a failure for ${JSON.stringify(body)}`)
  return r.failure
}

const fields = (body: Record<string, unknown>): Array<string> => failure(body).errors.map((e) => e.field).sort()

/** The spec's table: which of month and day_of_month each unit allows, and which field is blamed. */
const expectedFields = (unit: IntervalUnit, month: boolean, day: boolean): Array<string> => {
  switch (unit) {
    case "weekly":
      return [...(day ? ["day_of_month"] : []), ...(month ? ["month"] : [])]
    case "monthly":
      return month ? ["month"] : []
    case "yearly":
      return month && !day ? ["day_of_month"] : day && !month ? ["month"] : []
  }
}

describe("the table of month and day_of_month per interval_unit", () => {
  it("every combination plans exactly when the table allows it, and otherwise names the offending field", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<IntervalUnit>("weekly", "monthly", "yearly"),
        fc.option(fc.constantFrom(...MONTHS), { nil: undefined }),
        fc.option(fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant(-1)), { nil: undefined }),
        (unit, month, day) => {
          const body = { ...base(unit), ...(month === undefined ? {} : { month }), ...(day === undefined ? {} : { day_of_month: day }) }
          const expected = expectedFields(unit, month !== undefined, day !== undefined)
          const r = planSubscription(body, ctx)
          if (expected.length === 0) expect(Result.isSuccess(r)).toBe(true)
          else {
            const f = failure(body)
            expect(f.errors.map((e) => e.field).sort()).toEqual(expected)
            for (const e of f.errors) expect(e.request_pointer).toBe(`/subscriptions/${e.field}`)
          }
        }
      )
    )
  })

  it("the spec's examples", () => {
    const ok = (b: Record<string, unknown>) => expect(Result.isSuccess(planSubscription(b, ctx))).toBe(true)
    ok({ ...base("yearly"), interval: 1, month: "january", day_of_month: -1 })
    ok({ ...base("monthly"), interval: 6 })
    ok({ ...base("monthly"), interval: 6, day_of_month: 12 })
    ok({ ...base("weekly"), interval: 2 })
    expect(fields({ ...base("yearly"), interval: 1, month: "march" })).toEqual(["day_of_month"])
    expect(fields({ ...base("yearly"), interval: 1, day_of_month: 2 })).toEqual(["month"])
    expect(fields({ ...base("monthly"), interval: 6, month: "august", day_of_month: 12 })).toEqual(["month"])
    expect(fields({ ...base("weekly"), interval: 2, month: "october", day_of_month: 10 })).toEqual(["day_of_month", "month"])
  })
})

describe("field rules", () => {
  it("interval must give at least one charge a year: weekly <= 52, monthly <= 12, yearly == 1", () => {
    fc.assert(
      fc.property(fc.constantFrom<IntervalUnit>("weekly", "monthly", "yearly"), fc.integer({ min: 1, max: 200 }), (unit, interval) => {
        const r = planSubscription({ ...base(unit), interval }, ctx)
        if (interval <= MAX_INTERVAL_PER_UNIT[unit]) expect(Result.isSuccess(r)).toBe(true)
        else expect(fields({ ...base(unit), interval })).toEqual(["interval"])
      })
    )
  })

  it("interval, count and day_of_month accept integers or their decimal strings, and nothing else", () => {
    expect(Result.isSuccess(planSubscription({ ...base("monthly"), interval: "3", count: "12", day_of_month: "-1" }, ctx))).toBe(true)
    expect(fields({ ...base("monthly"), interval: 0 })).toEqual(["interval"])
    expect(fields({ ...base("monthly"), interval: "1.5" })).toEqual(["interval"])
    expect(fields({ ...base("monthly"), count: 0 })).toEqual(["count"])
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 100 }), (day) => {
        const r = planSubscription({ ...base("monthly"), day_of_month: day }, ctx)
        expect(Result.isSuccess(r)).toBe((day >= 1 && day <= 28) || day === -1)
      })
    )
  })

  it("count and end_date together are invalid, blaming end_date", () => {
    expect(fields({ ...base("monthly"), count: 3, end_date: "2027-06-01" })).toEqual(["end_date"])
  })

  it("start_date must be on or after the mandate's next possible charge date and within a year of today", () => {
    expect(fields({ ...base("monthly"), start_date: "2026-11-25" })).toEqual(["start_date"])
    expect(Result.isSuccess(planSubscription({ ...base("monthly"), start_date: "2026-11-26" }, ctx))).toBe(true)
    expect(Result.isSuccess(planSubscription({ ...base("monthly"), start_date: "2027-11-21" }, ctx))).toBe(true)
    expect(fields({ ...base("monthly"), start_date: "2027-11-22" })).toEqual(["start_date"])
  })

  it("end_date must leave at least one charge", () => {
    expect(fields({ ...base("monthly"), start_date: "2026-12-01", end_date: "2026-12-01" })).toEqual(["end_date"])
    expect(Result.isSuccess(planSubscription({ ...base("monthly"), start_date: "2026-12-01", end_date: "2026-12-02" }, ctx))).toBe(true)
  })

  it("required fields, enums, app_fee at most half the amount, name length", () => {
    expect(fields({ currency: "GBP", interval_unit: "monthly", links: { mandate: MANDATE } })).toEqual(["amount"])
    expect(fields({ ...base("monthly"), interval_unit: "daily" })).toEqual(["interval_unit"])
    expect(fields({ ...base("yearly"), month: "January", day_of_month: 1 })).toEqual(["month"])
    expect(fields({ ...base("monthly"), links: { mandate: "CU0000000000AB" } })).toEqual(["links.mandate"])
    expect(failure({ ...base("monthly"), links: {} }).errors[0]?.request_pointer).toBe("/subscriptions/links/mandate")
    expect(Result.isSuccess(planSubscription({ ...base("monthly"), app_fee: 500 }, ctx))).toBe(true)
    expect(fields({ ...base("monthly"), app_fee: 501 })).toEqual(["app_fee"])
    expect(fields({ ...base("monthly"), name: "x".repeat(256) })).toEqual(["name"])
  })

  it("app_fee: the money rule and its message, exact where float products round (2^53 - 1)", () => {
    const amount = Number.MAX_SAFE_INTEGER
    const over = failure({ ...base("monthly"), amount, app_fee: Math.floor(amount / 2) + 1 }).errors
    expect(over.map((e) => [e.field, e.message])).toEqual([["app_fee", APP_FEE_MESSAGE]])
    expect(Result.isSuccess(planSubscription({ ...base("monthly"), amount, app_fee: Math.floor(amount / 2) }, ctx))).toBe(true)
  })
})

describe("amount", () => {
  it("refuses an amount of 0 on `amount` with the payments' message", () => {
    for (const unit of ["weekly", "monthly", "yearly"] as const) {
      const errors = failure({ ...base(unit), amount: 0 }).errors
      expect(errors.map((e) => [e.field, e.message, e.request_pointer])).toEqual([["amount", "must be greater than 0", "/subscriptions/amount"]])
    }
  })

  it("accepts every positive amount and refuses zero, whatever the unit", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom("weekly", "monthly", "yearly" as const), (amount, unit) => {
      const r = planSubscription({ ...base(unit), amount }, ctx)
      expect(Result.isSuccess(r)).toBe(amount > 0)
    }))
  })
})
