import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Events, Payments, Simulator, Subscriptions } from "@paykit/engine"
import { ORG, START, runEngine, setUpPayer, edge } from "./fixtures.ts"

const DAY = 86_400_000
const errorOf = <A, E>(exit: Exit.Exit<A, E>): string => (Exit.isFailure(exit) ? JSON.stringify(exit.cause) : "")

describe("subscriptions", () => {
  it("plans a count subscription with its upcoming payments and end date, and finishes after the last payment", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const subs = yield* Subscriptions
      const created = yield* Effect.flatMap(edge.subscription({ amount: 1000, currency: "GBP", interval_unit: "weekly", count: 3, links: { mandate: mandate.id } }), (c) => subs.create(ORG, c))
      yield* (yield* Simulator).advanceTo(START + 40 * DAY)
      const after = yield* subs.get(ORG, created.id)
      const payments = yield* (yield* Payments).list(ORG, { subscription: created.id })
      const events = yield* (yield* Events).list(ORG, { subscription: created.id, resource_type: "subscriptions" })
      return { created, after, payments: payments.items, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(r.created.start_date).toBe("2026-11-26")
    expect(r.created.upcoming_payments.map((u) => u.charge_date)).toEqual(["2026-11-26", "2026-12-03", "2026-12-10"])
    expect(r.created.end_date).toBe("2026-12-10")
    // Made on Monday at 09:00, after the day's 06:00 run: Tuesday's run makes the first payment,
    // still on the date announced (counted from Tuesday it would be Friday 27 Nov).
    expect(r.payments.map((p) => p.charge_date).reverse()).toEqual(["2026-11-26", "2026-12-03", "2026-12-10"])
    expect(r.after.status).toBe("finished")
    expect(r.after.upcoming_payments).toEqual([])
    expect(r.actions).toEqual(["created", "payment_created", "payment_created", "payment_created", "finished"])
  })

  it("pauses for cycles, skips them, and resumes by itself", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const subs = yield* Subscriptions
      const created = yield* Effect.flatMap(edge.subscription({ amount: 1000, currency: "GBP", interval_unit: "weekly", links: { mandate: mandate.id } }), (c) => subs.create(ORG, c))
      const paused = yield* subs.pause(ORG, created.id, { pause_cycles: 2 })
      yield* (yield* Simulator).advanceTo(START + 30 * DAY)
      const after = yield* subs.get(ORG, created.id)
      const payments = yield* (yield* Payments).list(ORG, { subscription: created.id, limit: 50 })
      return { paused, after, dates: payments.items.map((p) => p.charge_date).reverse() }
    }))
    expect(r.paused.status).toBe("paused")
    expect(r.paused.earliest_charge_date_after_resume).not.toBeNull()
    expect(r.after.status).toBe("active")
    // 26 Nov and 3 Dec skipped; charges resume on 10 Dec.
    expect(r.dates[0]).toBe("2026-12-10")
  })

  it("pauses indefinitely and resumes on request; refuses to resume an active one", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const subs = yield* Subscriptions
      const created = yield* Effect.flatMap(edge.subscription({ amount: 1000, currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } }), (c) => subs.create(ORG, c))
      const paused = yield* subs.pause(ORG, created.id)
      yield* (yield* Simulator).advanceTo(START + 20 * DAY)
      const none = yield* (yield* Payments).list(ORG, { subscription: created.id })
      const resumed = yield* subs.resume(ORG, created.id)
      const again = yield* Effect.exit(subs.resume(ORG, created.id))
      return { paused, none: none.items.length, resumed, again: errorOf(again) }
    }))
    expect(r.paused.upcoming_payments).toEqual([])
    expect(r.none).toBe(0)
    expect(r.resumed.status).toBe("active")
    expect(r.again).toContain("subscription_not_paused")
  })

  it("lists by status (at most 5) and by customer, and updates the fields the API allows", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate, customer } = yield* setUpPayer(ORG)
      const subs = yield* Subscriptions
      const a = yield* Effect.flatMap(edge.subscription({ amount: 1000, currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } }), (c) => subs.create(ORG, c))
      const b = yield* Effect.flatMap(edge.subscription({ amount: 2000, currency: "GBP", interval_unit: "yearly", links: { mandate: mandate.id } }), (c) => subs.create(ORG, c))
      yield* subs.cancel(ORG, b.id)
      const updated = yield* Effect.flatMap(edge.subscriptionUpdate({ name: "Gold", amount: 1200, metadata: { plan: "gold" } }), (c) => subs.update(ORG, a.id, c))
      const badUpdate = yield* Effect.exit(Effect.flatMap(edge.subscriptionUpdate({ interval_unit: "weekly", amount: 0 }), (c) => subs.update(ORG, a.id, c)))
      return {
        active: (yield* subs.list(ORG, { status: ["active"] })).items.map((s) => s.id),
        cancelled: (yield* subs.list(ORG, { status: "cancelled" })).items.map((s) => s.id),
        ofCustomer: (yield* subs.list(ORG, { customer: customer.id })).items.length,
        ofNobody: (yield* subs.list(ORG, { customer: "CU000000000000" })).items.length,
        tooMany: errorOf(yield* Effect.exit(Effect.flatMap(
          edge.subscriptionList({ status: ["active", "paused", "finished", "cancelled", "customer_approval_denied", "pending_customer_approval"] }),
          (params) => subs.list(ORG, params)
        ))),
        updated,
        badUpdate: errorOf(badUpdate),
        a: a.id,
        b: b.id
      }
    }))
    expect(r.active).toEqual([r.a])
    expect(r.cancelled).toEqual([r.b])
    expect(r.ofCustomer).toBe(2)
    expect(r.ofNobody).toBe(0)
    expect(r.tooMany).toContain("at most 5")
    expect(r.updated.name).toBe("Gold")
    expect(r.updated.amount).toBe(1200)
    expect(r.updated.upcoming_payments.every((u) => u.amount === 1200)).toBe(true)
    expect(r.badUpdate).toContain("amount")
  })
})
