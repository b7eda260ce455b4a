import { readFileSync } from "node:fs"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isoWeekday, unsafeLocalDate } from "@paykit/core"
import { calendarFor } from "@paykit/schedule"
import { DAILY_RUN_OFFSET_MS, Events, JobRegistry, nextDailyRunAfter, Payments, Payouts, Simulator, Subscriptions } from "@paykit/engine"
import { setUpPayer as setUpPayerWith } from "@paykit/engine/testing"
import { ORG, START, runEngine, edge } from "./fixtures.ts"

const DAY = 86_400_000

/** A payer whose creditor has sent its verification details, so the simulator can pay it out. */
const verifiedPayer = (accountHolderName?: string) =>
  setUpPayerWith(ORG, { verifyCreditor: true, ...(accountHolderName === undefined ? {} : { accountHolderName }) })

describe("the simulator", () => {
  it("takes a mandate live, collects a payment and pays it out", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* verifiedPayer()
      const payments = yield* Payments
      const payment = yield* Effect.flatMap(edge.payment({ amount: 2500, currency: "GBP", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c))
      yield* (yield* Simulator).advanceTo(START + 10 * DAY)
      const after = yield* payments.get(ORG, payment.id)
      const payouts = yield* (yield* Payouts).list(ORG, {})
      const events = yield* (yield* Events).list(ORG, { payment: payment.id, limit: 50 })
      return { after, payouts, events }
    }))
    expect(result.after.status).toBe("paid_out")
    expect(result.payouts.items).toHaveLength(1)
    const payout = result.payouts.items[0]
    expect(payout?.status).toBe("paid")
    // 2500 less the default Bacs fee (20p + 1% = 45p, capped at 4.00) and 20% UK VAT on it (9p).
    expect(payout?.amount).toBe(2500 - 45 - 9)
    expect(payout?.deducted_fees).toBe(54)
    expect(result.events.items.map((e) => e.action).reverse()).toEqual(["created", "submitted", "confirmed", "paid_out"])
  })

  it("fails a payment for an account holder named Fail, and charges back one named Chargeback", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const failing = yield* verifiedPayer("Fail Payer")
      const disputing = yield* verifiedPayer("Chargeback Payer")
      const payments = yield* Payments
      const p1 = yield* Effect.flatMap(edge.payment({ amount: 2500, currency: "GBP", links: { mandate: failing.mandate.id } }), (c) => payments.create(ORG, c))
      const p2 = yield* Effect.flatMap(edge.payment({ amount: 2500, currency: "GBP", links: { mandate: disputing.mandate.id } }), (c) => payments.create(ORG, c))
      yield* (yield* Simulator).advanceTo(START + 20 * DAY)
      const events = yield* (yield* Events).list(ORG, { payment: p2.id, limit: 50 })
      const payouts = yield* (yield* Payouts).list(ORG, { creditor: disputing.creditor.id })
      return {
        balance: yield* payments.balance(ORG, disputing.creditor.id, "GBP"),
        statuses: [(yield* payments.get(ORG, p1.id)).status, (yield* payments.get(ORG, p2.id)).status],
        actions: events.items.map((e) => e.action).reverse(),
        payouts: payouts.items
      }
    }))
    expect(result.statuses).toEqual(["failed", "charged_back"])
    expect(result.actions).toEqual(["created", "submitted", "confirmed", "paid_out", "charged_back"])
    // The collection was paid out, then taken back with its fees (54) refunded and a 5.00 surcharge
    // plus 20% VAT charged: the balance is negative, so no payout settles it yet (carried).
    expect(result.payouts).toHaveLength(1)
    expect(result.balance).toBe(-2500 + 54 - 600)
  })

  it("charges a monthly subscription 12 times in a year, on business days, each paid out", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* verifiedPayer()
      const subscription = yield* Effect.flatMap(edge.subscription({
        amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, name: "Membership", links: { mandate: mandate.id }
      }), (c) => Subscriptions.use((service) => service.create(ORG, c)))
      yield* (yield* Simulator).advanceTo(START + 365 * DAY)
      const all = yield* (yield* Payments).list(ORG, { subscription: subscription.id, limit: 100 })
      const payouts = yield* (yield* Payouts).list(ORG, { limit: 100 })
      return { subscription, payments: all.items, payouts: payouts.items }
    }))
    expect(result.subscription.upcoming_payments[0]?.charge_date).toBe("2026-12-01")
    const dates = result.payments.map((p) => p.charge_date ?? "").sort()
    expect(dates).toHaveLength(12)
    const bacs = calendarFor("bacs")
    for (const d of dates) {
      expect(bacs.isBusinessDay(unsafeLocalDate(d))).toBe(true)
      expect(isoWeekday(unsafeLocalDate(d))).toBeLessThan(6)
    }
    // 1 January 2027 is a bank holiday: that month's charge rolls to Monday 4 January.
    expect(dates.slice(0, 3)).toEqual(["2026-12-01", "2027-01-04", "2027-02-01"])
    expect(result.payments.every((p) => p.status === "paid_out")).toBe(true)
    const paidOut = result.payouts.reduce((s, p) => s + p.amount + p.deducted_fees, 0)
    expect(paidOut).toBe(12 * 1500)
  })
})

describe("the next daily run", () => {
  it("is the first instant strictly after now that is the run's hour of a UTC day", () => {
    const DAY = 86_400_000
    fc.assert(fc.property(fc.integer({ min: 0, max: 300 * 365 * DAY }), (now) => {
      const next = nextDailyRunAfter(now)
      expect(next).toBeGreaterThan(now)
      expect(next - now).toBeLessThanOrEqual(DAY)
      expect(new Date(next).toISOString().slice(11)).toBe(new Date(DAILY_RUN_OFFSET_MS).toISOString().slice(11))
    }))
  })
})

describe("the job registry", () => {
  it("gives the simulator every feature's due work in the documented order, deadlines last", async () => {
    const jobs = await runEngine(Effect.map(Simulator, (simulator) => simulator.jobs.map((job) => job.name)))
    // docs/engine.md, "The simulator": the order of one daily run.
    expect(jobs).toEqual([
      "creditor reviews", "bank reports", "mandate imports", "mandates", "subscriptions", "payments", "bank submissions", "payouts", "partner payouts",
      "instalment schedules", "import validation", "outbound execution", "import expiry", "outbound approval expiry", "bank authorisation expiry"
    ])
    const deadlines = await runEngine(Effect.map(JobRegistry, (registry) => registry.deadlines.map((job) => job.name)))
    expect(deadlines).toEqual(["import expiry", "outbound approval expiry", "bank authorisation expiry"])
  })

  it("refuses two jobs with one name or one place, and sorts by place whatever the declaration order", async () => {
    const job = (name: string, order: number) => ({ name, order, deadline: false, run: () => Effect.void })
    const build = (jobs: ReadonlyArray<ReturnType<typeof job>>) =>
      Effect.runPromise(Effect.provide(Effect.map(JobRegistry, (r) => r.jobs.map((j) => j.name)), JobRegistry.layer(Effect.succeed(jobs))))
    expect(await build([job("b", 2), job("a", 1)])).toEqual(["a", "b"])
    await expect(build([job("a", 1), job("a", 2)])).rejects.toThrow(/one name/)
    await expect(build([job("a", 1), job("b", 1)])).rejects.toThrow(/one place/)
  })

  it("lives in due-work, which imports no feature", () => {
    for (const file of ["daily-clock.ts", "jobs.ts"]) {
      const source = readFileSync(new URL(`../src/due-work/${file}`, import.meta.url), "utf8")
      const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1] ?? "")
      expect(imports.filter((path) => path.startsWith("..")), file).toEqual([])
    }
  })
})
