import { Effect } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Payments, Simulator, Subscriptions } from "@paykit/engine"
import { edge, ORG, runEngine, setUpPayer, START } from "./fixtures.ts"

const HOUR = 3_600_000
const DAY = 24 * HOUR

/**
 * A subscription is charged on the dates it announced, whatever the hour and the day of the week
 * it is made at. The rule is stated by the subscription itself: its `upcoming_payments` when made
 * are the dates its payments carry. Made after the day's 06:00 run, the first of them was charged
 * a working day later than announced (docs/subscriptions.md, "Charge dates announced after the
 * day's run").
 */
describe("a subscription's announced dates", () => {
  it("are the dates it is charged on, made at any hour of any day of the week", async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 23 }), fc.constantFrom("weekly" as const, "monthly" as const),
      async (weekday, hour, interval_unit) => {
        // START is Monday 23 Nov 2026 at 09:00 UTC.
        const madeAt = START - 9 * HOUR + weekday * DAY + hour * HOUR + 17 * 60_000
        const { announced, charged } = await runEngine(Effect.gen(function*() {
          yield* TestClock.setTime(madeAt)
          const { mandate } = yield* setUpPayer(ORG)
          const request = yield* edge.subscription({ amount: 1000, currency: "GBP", interval_unit, count: 3, links: { mandate: mandate.id } })
          const created = yield* (yield* Subscriptions).create(ORG, request)
          yield* (yield* Simulator).advanceTo(madeAt + 100 * DAY)
          const payments = yield* (yield* Payments).list(ORG, { subscription: created.id })
          return { announced: created.upcoming_payments.map((u) => u.charge_date), charged: payments.items.map((p) => p.charge_date).reverse() }
        }))
        expect(charged).toEqual(announced)
      }
    ), { numRuns: 50 })
  }, 120_000)

  it("after a resume are the dates it is charged on, resumed at any hour of a later day", async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 23 }),
      async (days, hour) => {
        const resumedAt = START - 9 * HOUR + days * DAY + hour * HOUR + 17 * 60_000
        const { announced, charged } = await runEngine(Effect.gen(function*() {
          const { mandate } = yield* setUpPayer(ORG)
          const subscriptions = yield* Subscriptions
          const request = yield* edge.subscription({ amount: 1000, currency: "GBP", interval_unit: "weekly", count: 3, links: { mandate: mandate.id } })
          const created = yield* subscriptions.create(ORG, request)
          yield* subscriptions.pause(ORG, created.id)
          yield* (yield* Simulator).advanceTo(resumedAt)
          const resumed = yield* subscriptions.resume(ORG, created.id)
          yield* (yield* Simulator).advanceTo(resumedAt + 100 * DAY)
          const payments = yield* (yield* Payments).list(ORG, { subscription: created.id })
          return { announced: resumed.upcoming_payments.map((u) => u.charge_date), charged: payments.items.map((p) => p.charge_date).reverse() }
        }))
        expect(charged).toEqual(announced)
      }
    ), { numRuns: 30 })
  }, 120_000)
})
