import { fromDayNumber, toDayNumber, timestampFromMillis, unsafeLocalDate } from "@paykit/core"
import type { InvalidState, LocalDate } from "@paykit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  calendarFor,
  chargeDay,
  earliestChargeDateAfterResume,
  pauseSubscription,
  planSubscription,
  reportedEndDate,
  resumeSubscription,
  scheduleChargeDates,
  upcomingPayments
} from "../src/index.ts"
import type { PausableSubscription, PlanContext, SubscriptionPlan } from "../src/index.ts"
import { contextArb, MANDATE, requestOf, validShapeArb } from "@paykit/schedule/testing"

const d = unsafeLocalDate
const bacs = calendarFor("bacs")
/** The instant of every pause request here: the subscription machine's guards read none. */
const at = timestampFromMillis(Date.UTC(2026, 10, 21, 10))

const plan = (body: Record<string, unknown>, ctx: PlanContext): SubscriptionPlan => {
  const r = planSubscription(body, ctx)
  if (Result.isFailure(r)) throw new Error(JSON.stringify(r.failure.errors))
  return r.success
}

const ok = <A, E>(r: Result.Result<A, E>): A => {
  if (Result.isFailure(r)) throw new Error(JSON.stringify(r.failure))
  return r.success
}

const reason = (r: Result.Result<PausableSubscription, unknown>): string => {
  if (Result.isSuccess(r)) throw new Error("expected a failure")
  return (r.failure as InvalidState).reason
}

const take = <A>(it: Iterable<A>, n: number): Array<A> => {
  const out: Array<A> = []
  for (const a of it) {
    if (out.length >= n) break
    out.push(a)
  }
  return out
}

/** Pausable subscriptions (count or forever) and a later day on which to pause them. */
const pausable = fc
  .tuple(contextArb, validShapeArb.filter((s) => s.endOffset === undefined), fc.integer({ min: 0, max: 400 }))
  .map(([ctx, shape, later]) => {
    const p = plan(requestOf(shape, ctx), ctx)
    const sub: PausableSubscription = { status: "active", schedule: p.schedule }
    const npcd = ctx.calendar.rollForwardDay(toDayNumber(ctx.next_possible_charge_date) + later)
    return { ctx, sub, pauseCtx: { calendar: ctx.calendar, next_possible_charge_date: fromDay(npcd), at } }
  })

const fromDay = fromDayNumber

/** The charge dates still to come on the pause day: those on or after its next possible charge date. */
const pending = (sub: PausableSubscription, calendar: PlanContext["calendar"], npcd: LocalDate, n: number): Array<LocalDate> =>
  take(take(scheduleChargeDates(sub.schedule, calendar), 2000).filter((x) => x >= npcd), n)

describe("pause for cycles", () => {
  it("skips the next n charges and moves every later one n cycles on; a count still takes every payment", () => {
    fc.assert(
      fc.property(pausable, fc.integer({ min: 1, max: 6 }), ({ ctx, sub, pauseCtx }, n) => {
        const before = pending(sub, ctx.calendar, pauseCtx.next_possible_charge_date, 30)
        fc.pre(before.length > 0)
        const paused = ok(pauseSubscription(sub, { pause_cycles: n }, pauseCtx))
        expect(paused.status).toBe("paused")
        const after = take(scheduleChargeDates(paused.schedule, ctx.calendar), 30)
        const s = sub.schedule
        // The k-th remaining charge after the pause is the (k + n)-th occurrence from the pause.
        const from = paused.schedule.fromIndex
        for (const [i, date] of after.entries()) expect(toDayNumber(date)).toBe(chargeDay(s.recurrence, ctx.calendar, from + i))
        const pausedAt = paused.schedule.pause.kind === "paused_for_cycles" ? paused.schedule.pause.pausedAt : -1
        expect(from - pausedAt).toBe(n)
        expect(before[0]).toBe(fromDayNumber(chargeDay(s.recurrence, ctx.calendar, pausedAt)))
        if (s.endIndex !== null) {
          expect(after.length).toBe(Math.min(30, before.length))
          const all = [...scheduleChargeDates(paused.schedule, ctx.calendar)]
          expect(reportedEndDate(paused.schedule, ctx.calendar)).toBe(all[all.length - 1])
        }
        // Still listed while paused for cycles: the charges after the pause.
        expect(upcomingPayments(paused.schedule, ctx.calendar, pauseCtx.next_possible_charge_date, 5).map((u) => u.charge_date))
          .toEqual(after.slice(0, 10))
      })
    )
  })
})

describe("pause indefinitely and resume", () => {
  it("no charges and no end_date while paused; resume keeps every payment left and starts at earliest_charge_date_after_resume", () => {
    fc.assert(
      fc.property(pausable, fc.integer({ min: 0, max: 800 }), ({ ctx, sub, pauseCtx }, gap) => {
        const before = pending(sub, ctx.calendar, pauseCtx.next_possible_charge_date, 2000)
        fc.pre(before.length > 0)
        const paused = ok(pauseSubscription(sub, {}, pauseCtx))
        expect([...scheduleChargeDates(paused.schedule, ctx.calendar)]).toEqual([])
        expect(upcomingPayments(paused.schedule, ctx.calendar, pauseCtx.next_possible_charge_date, 1)).toEqual([])
        if (sub.schedule.endIndex !== null) expect(reportedEndDate(paused.schedule, ctx.calendar)).toBeNull()
        const resumeCtx = { calendar: ctx.calendar, next_possible_charge_date: fromDay(ctx.calendar.rollForwardDay(toDayNumber(pauseCtx.next_possible_charge_date) + gap)), at }
        const earliest = earliestChargeDateAfterResume(paused.schedule, ctx.calendar, resumeCtx.next_possible_charge_date)
        expect(earliest !== null && earliest >= resumeCtx.next_possible_charge_date).toBe(true)
        const resumed = ok(resumeSubscription(paused, {}, resumeCtx))
        expect(resumed.status).toBe("active")
        const after = take(scheduleChargeDates(resumed.schedule, ctx.calendar), 2000)
        expect(after[0]).toBe(earliest)
        if (sub.schedule.endIndex !== null) expect(after.length).toBe(before.length)
        expect(earliestChargeDateAfterResume(resumed.schedule, ctx.calendar, resumeCtx.next_possible_charge_date)).toBeNull()
      })
    )
  })
})

describe("which subscriptions may be paused (real API reasons)", () => {
  const ctx: PlanContext = { calendar: bacs, today: d("2026-11-21"), next_possible_charge_date: d("2026-11-26") }
  const pctx = { calendar: bacs, next_possible_charge_date: d("2026-11-26"), at }
  const body = { amount: 1000, currency: "GBP", interval_unit: "monthly", day_of_month: 5, links: { mandate: MANDATE } }
  const active = (extra: Record<string, unknown> = {}): PausableSubscription => ({ status: "active", schedule: plan({ ...body, ...extra }, ctx).schedule })

  it("a subscription with an end_date cannot be paused", () => {
    expect(reason(pauseSubscription(active({ end_date: "2027-12-01" }), {}, pctx))).toBe("subscription_cannot_be_paused")
  })
  it("one paused for cycles cannot be paused for other cycles, but can be paused indefinitely", () => {
    const paused = ok(pauseSubscription(active({ count: 6 }), { pause_cycles: 2 }, pctx))
    expect(reason(pauseSubscription(paused, { pause_cycles: 1 }, pctx))).toBe("subscription_paused_cannot_update_cycles")
    const indefinite = ok(pauseSubscription(paused, {}, pctx))
    expect(indefinite.schedule.pause.kind).toBe("paused_indefinitely")
    expect(indefinite.schedule.endIndex).toBe(6) // the two skipped cycles given back
    expect(reason(pauseSubscription(indefinite, {}, pctx))).toBe("subscription_cannot_be_paused")
  })
  it("only active subscriptions pause; only paused ones resume", () => {
    for (const status of ["cancelled", "finished", "pending_customer_approval", "customer_approval_denied"] as const) {
      expect(reason(pauseSubscription({ ...active(), status }, {}, pctx))).toBe("subscription_not_active")
    }
    expect(reason(resumeSubscription(active(), {}, pctx))).toBe("subscription_not_paused")
  })
  it("pause_cycles must be 1 or more (validation), and enough to reach the scheme's earliest date after a pause", () => {
    const r = pauseSubscription(active(), { pause_cycles: 0 }, pctx)
    expect(Result.isFailure(r) && r.failure._tag === "ValidationFailed" && r.failure.errors[0]?.request_pointer).toBe("/subscriptions/pause_cycles")
    const weekly = { status: "active" as const, schedule: plan({ amount: 1000, currency: "GBP", interval_unit: "weekly", links: { mandate: MANDATE } }, ctx).schedule }
    const waiting = { ...pctx, earliest_charge_date_after_pause: d("2026-12-15") }
    const tooFew = pauseSubscription(weekly, { pause_cycles: 2 }, waiting)
    expect(reason(tooFew)).toBe("pause_cycles_must_be_greater_than_or_equal_to")
    // weekly from Thu 26 Nov: 3 Dec, 10 Dec skipped are too early; the 4th cycle on (17 Dec) is the first on or after the 15th
    expect(Result.isFailure(tooFew) && tooFew.failure.message).toBe("pause_cycles must be greater than or equal to 3")
    expect(Result.isSuccess(pauseSubscription(weekly, { pause_cycles: 3 }, waiting))).toBe(true)
  })

  it("known answer: monthly on the 5th, count 12, paused indefinitely after the March payment", () => {
    const sub = { status: "active" as const, schedule: plan({ ...body, count: 12, start_date: "2024-03-05" },
      { calendar: bacs, today: d("2024-03-04"), next_possible_charge_date: d("2024-03-05") }).schedule }
    const paused = ok(pauseSubscription(sub, {}, { calendar: bacs, next_possible_charge_date: d("2024-03-08"), at }))
    expect(reportedEndDate(paused.schedule, bacs)).toBeNull()
    expect(earliestChargeDateAfterResume(paused.schedule, bacs, d("2024-03-08"))).toBe("2024-04-05")
    // Resumed in June: the 11 payments left run from 5 July 2024 to 5 May 2025.
    const resumed = ok(resumeSubscription(paused, {}, { calendar: bacs, next_possible_charge_date: d("2024-06-10"), at }))
    const dates = [...scheduleChargeDates(resumed.schedule, bacs)]
    expect(dates.length).toBe(11)
    expect(dates[0]).toBe("2024-07-05")
    expect(reportedEndDate(resumed.schedule, bacs)).toBe("2025-05-06") // 5 May 2025 is the Early May bank holiday
  })
})
