import { Effect } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Payments, Simulator, type Subscription, Subscriptions } from "@paykit/engine"
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
/** Monday 23 Nov 2026 (START's day) plus `days`, at `hour`:17 UTC. */
const at = (days: number, hour: number) => START - 9 * HOUR + days * DAY + hour * HOUR + 17 * 60_000

/**
 * A subscription of three payments on a new Bacs mandate, made at `madeAt`; `announce` answers
 * the subscription as it stands once its dates are announced (made, or acted on). Answers those
 * dates and the dates its payments were charged on, 100 days later.
 */
const announcedAndCharged = (
  madeAt: number,
  interval_unit: "weekly" | "monthly",
  announce: (subscription: Subscription) => Effect.Effect<Subscription, unknown, Subscriptions | Simulator>
) =>
  runEngine(Effect.gen(function*() {
    yield* TestClock.setTime(madeAt)
    const { mandate } = yield* setUpPayer(ORG)
    const request = yield* edge.subscription({ amount: 1000, currency: "GBP", interval_unit, count: 3, links: { mandate: mandate.id } })
    const announced = yield* announce(yield* (yield* Subscriptions).create(ORG, request))
    yield* (yield* Simulator).advanceBy(100 * DAY)
    const payments = yield* (yield* Payments).list(ORG, { subscription: announced.id })
    return { announced: announced.upcoming_payments.map((u) => u.charge_date), charged: payments.items.map((p) => p.charge_date).reverse() }
  }))

describe("a subscription's announced dates", () => {
  it("are the dates it is charged on, made at any hour of any day of the week", async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 23 }), fc.constantFrom("weekly" as const, "monthly" as const),
      async (weekday, hour, interval_unit) => {
        const { announced, charged } = await announcedAndCharged(at(weekday, hour), interval_unit, Effect.succeed)
        expect(charged).toEqual(announced)
      }
    ), { numRuns: 50 })
  }, 120_000)

  it("after a resume are the dates it is charged on, resumed at any hour of a later day", async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 23 }),
      async (days, hour) => {
        const { announced, charged } = await announcedAndCharged(START, "weekly", (created) =>
          Effect.gen(function*() {
            const subscriptions = yield* Subscriptions
            yield* subscriptions.pause(ORG, created.id)
            yield* (yield* Simulator).advanceTo(at(days, hour))
            return yield* subscriptions.resume(ORG, created.id)
          }))
        expect(charged).toEqual(announced)
      }
    ), { numRuns: 30 })
  }, 120_000)
})
