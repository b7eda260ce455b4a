import { Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import {
  EventLog,
  InMemoryStorage,
  Payments,
  RepositoryBackend,
  sandboxEngineOn,
  Simulator,
  DueWorkSchedule,
  DueWorkStore,
  InstalmentSchedules,
  Mandates,
  Subscriptions,
  Transactor
} from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { addDays, type LocalDate } from "@paykit/core"
import { edge, ORG, START } from "./fixtures.ts"

/**
 * The daily run reads what is due, not the history: the in-memory storage is wrapped so every row
 * a scan answers is recorded by resource, and one daily run after many payments were collected
 * must read none of them (the payments job looked at each collected payment daily, and the
 * mandates job at each active Bacs mandate's payments).
 */

const DAY = 86_400_000

interface Read {
  readonly resource: string
  readonly status: unknown
}

/** The in-memory storage whose repositories record each row their scans answer into `reads`. */
const recordingStorage = (reads: Array<Read>) =>
  Layer.effectContext(Effect.gen(function*() {
    const backend = yield* RepositoryBackend
    const recorded: RepositoryBackend["Service"] = {
      ...backend,
      repository: (definition) => {
        const inner = backend.repository(definition)
        const scan: typeof inner.scan = (organisation, filters) =>
          Effect.tap(inner.scan(organisation, filters), (rows) =>
            Effect.sync(() => {
              for (const row of rows) reads.push({ resource: definition.name, status: "status" in row.resource ? row.resource.status : undefined })
            }))
        return { ...inner, scan }
      }
    }
    return Context.make(RepositoryBackend, recorded).pipe(
      Context.add(Transactor, yield* Transactor),
      Context.add(EventLog, yield* EventLog),
      Context.add(DueWorkStore, yield* DueWorkStore),
      Context.add(DueWorkSchedule, yield* DueWorkSchedule)
    )
  })).pipe(Layer.provide(InMemoryStorage))

describe("what a daily run reads", () => {
  it("after 30 payments were collected and paid out, a daily run reads none of them nor their mandates' dormancy; a chargeback still falls due", async () => {
    const reads: Array<Read> = []
    const layer = Layer.mergeAll(sandboxEngineOn(recordingStorage(reads), { seed: 1 }), TestClock.layer())
    const result = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const payments = yield* Payments
      const created = []
      for (let i = 0; i < 30; i++) {
        const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true, accountHolderName: i === 0 ? "Chargeback Payer" : `Payer ${i}` })
        created.push(yield* payments.create(ORG, yield* edge.payment({ amount: 2500, currency: "GBP", links: { mandate: mandate.id } })))
      }
      const simulator = yield* Simulator
      yield* simulator.advanceTo(START + 10 * DAY)
      const statusesAtTen = yield* Effect.forEach(created, (p) => Effect.map(payments.get(ORG, p.id), (x) => x.status))
      reads.length = 0
      yield* simulator.advanceTo(START + 11 * DAY)
      const oneDay = [...reads]
      yield* simulator.advanceTo(START + 20 * DAY)
      const first = created[0]
      return { statusesAtTen, oneDay, chargedBack: first === undefined ? undefined : (yield* payments.get(ORG, first.id)).status }
    }), layer))
    expect(result.statusesAtTen.slice(1).filter((s) => s === "paid_out")).toHaveLength(29)
    const collected = result.oneDay.filter((r) => r.resource === "payments")
    expect(collected).toEqual([])
    // The chargeback's record is read on its day, not before; no mandate falls dormant for a year.
    expect(result.oneDay.filter((r) => r.resource === "payment_reversals")).toEqual([])
    expect(result.oneDay.filter((r) => r.resource === "mandate_dormancies")).toEqual([])
    expect(result.chargedBack).toBe("charged_back")
  })

  it("with 56 monthly subscriptions on days spread over the month, a daily run reads only those whose notice starts, and not the subscriptions", async () => {
    const reads: Array<Read> = []
    const layer = Layer.mergeAll(sandboxEngineOn(recordingStorage(reads), { seed: 2 }), TestClock.layer())
    const result = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true })
      const subscriptions = yield* Subscriptions
      for (let i = 0; i < 56; i++) {
        yield* subscriptions.create(ORG, yield* edge.subscription({
          amount: 1000, currency: "GBP", interval_unit: "monthly", day_of_month: (i % 28) + 1, links: { mandate: mandate.id }
        }))
      }
      const simulator = yield* Simulator
      yield* simulator.advanceTo(START + 40 * DAY)
      const perDay: Array<{ readonly subscriptions: number; readonly schedules: number }> = []
      for (let d = 41; d <= 47; d++) {
        reads.length = 0
        yield* simulator.advanceTo(START + d * DAY)
        perDay.push({
          subscriptions: reads.filter((r) => r.resource === "subscriptions").length,
          schedules: reads.filter((r) => r.resource === "subscription_schedules").length
        })
      }
      const payments = yield* (yield* Payments).list(ORG, { limit: 500 })
      return { perDay, payments: payments.items.length }
    }), layer))
    // Every subscription was charged once in its first month and once more by day 47 or not: a
    // month of days each read about 56 / 30 records (more after a weekend), never all 56.
    expect(result.payments).toBeGreaterThanOrEqual(56)
    for (const day of result.perDay) {
      expect(day.subscriptions).toBe(0)
      expect(day.schedules).toBeLessThanOrEqual(12)
    }
    expect(result.perDay.reduce((n, day) => n + day.schedules, 0)).toBeGreaterThan(0)
  })

  it("with 12 instalment schedules whose payments stand still, a daily run reads no schedule nor payment; one whose payment moved is read", async () => {
    const reads: Array<Read> = []
    const layer = Layer.mergeAll(sandboxEngineOn(recordingStorage(reads), { seed: 3 }), TestClock.layer())
    const result = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true })
      const earliest = (yield* (yield* Mandates).get(ORG, mandate.id)).next_possible_charge_date as LocalDate
      const schedules = yield* InstalmentSchedules
      const made = []
      for (let i = 0; i < 12; i++) {
        made.push(yield* schedules.createWithDates(ORG, yield* edge.instalmentsWithDates({
          name: `Sofa ${i}`, currency: "GBP", total_amount: 2000, links: { mandate: mandate.id },
          instalments: [{ amount: 1000, charge_date: addDays(earliest, 60) }, { amount: 1000, charge_date: addDays(earliest, 90) }]
        })))
      }
      const simulator = yield* Simulator
      yield* simulator.advanceTo(START + 3 * DAY)
      reads.length = 0
      yield* simulator.advanceTo(START + 4 * DAY)
      const quiet = [...reads]
      const moved = made[0]?.links.payments[0] ?? ""
      yield* (yield* Payments).cancel(ORG, moved)
      reads.length = 0
      yield* simulator.advanceTo(START + 5 * DAY)
      return { quiet, afterMove: [...reads] }
    }), layer))
    expect(result.quiet.filter((r) => r.resource === "instalment_schedules")).toEqual([])
    // The payments waiting for their dates are the payments job's (submission), not the schedules'.
    expect(result.quiet.filter((r) => r.resource === "payments").every((r) => r.status === "pending_submission")).toBe(true)
    expect(result.quiet.filter((r) => r.resource === "instalment_schedule_checks")).toEqual([])
    expect(result.afterMove.filter((r) => r.resource === "instalment_schedule_checks")).toHaveLength(1)
    expect(result.afterMove.filter((r) => r.resource === "instalment_schedules")).toEqual([])
  })
})
