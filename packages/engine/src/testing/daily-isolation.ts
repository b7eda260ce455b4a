import { Clock, Effect, Logger, References } from "effect"
import { MILLIS_PER_DAY, OrganisationId, unsafeAmount } from "@paykit/core"
import { DAILY_ITEM_FAILED } from "../due-work/daily-items.ts"
import { TestClock } from "effect/testing"
import { Payments } from "../payments/payments.ts"
import { Subscriptions } from "../subscriptions/subscriptions.ts"
import { Simulator } from "../due-work/simulator.ts"
import { FailureInjection } from "./failing-storage.ts"
import { setUpPayer } from "./payer.ts"

/**
 * One poisoned item in a daily run, as a scenario any storage adapter can run (in memory here, SQL
 * in @paykit/store-sql): two organisations, each with subscriptions and payments; reading or
 * writing one subscription and one payment dies (`FailureInjection`) for three days of runs, then
 * works again. It answers what a test needs to check that the other items were processed, the
 * poisoned ones were left as they were and processed once the failure stopped, the clock moved,
 * and each failure was logged with its item's id.
 */

const ORG = OrganisationId("OR0000000000AA")
const OTHER_ORG = OrganisationId("OR0000000000BB")
/** Monday 23 November 2026, 09:00 UTC. */
export const ISOLATION_START = Date.UTC(2026, 10, 23, 9, 0, 0)
const DAY = MILLIS_PER_DAY

export interface LoggedFailure {
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
}

export const dailyIsolationScenario = Effect.gen(function*() {
  yield* TestClock.setTime(ISOLATION_START)
  const injection = yield* FailureInjection
  const subscriptions = yield* Subscriptions
  const payments = yield* Payments
  const simulator = yield* Simulator
  const a = yield* setUpPayer(ORG, { verifyCreditor: true })
  const b = yield* setUpPayer(OTHER_ORG, { verifyCreditor: true })
  const monthly = (amount: number, mandate: string) =>
    ({ amount: unsafeAmount(amount), currency: "GBP", interval_unit: "monthly", links: { mandate } }) as const
  const poisoned = yield* subscriptions.create(ORG, monthly(1000, a.mandate.id))
  const healthy = yield* subscriptions.create(ORG, monthly(2000, a.mandate.id))
  const elsewhere = yield* subscriptions.create(OTHER_ORG, monthly(3000, b.mandate.id))
  const stuck = yield* payments.create(ORG, { amount: unsafeAmount(500), currency: "GBP", links: { mandate: a.mandate.id } })
  const moving = yield* payments.create(ORG, { amount: unsafeAmount(600), currency: "GBP", links: { mandate: a.mandate.id } })

  // Payments are listed, not read one by one: a read of a poisoned id would die.
  const observe = Effect.gen(function*() {
    const all = [...(yield* payments.list(ORG, { limit: 500 })).items, ...(yield* payments.list(OTHER_ORG, { limit: 500 })).items]
    const chargedBy = (id: string) => all.filter((p) => p.links.subscription === id).length
    return {
      charged: { poisoned: chargedBy(poisoned.id), healthy: chargedBy(healthy.id), elsewhere: chargedBy(elsewhere.id) },
      status: { stuck: all.find((p) => p.id === stuck.id)?.status, moving: all.find((p) => p.id === moving.id)?.status },
      now: yield* Clock.currentTimeMillis
    }
  })

  const logged: Array<LoggedFailure> = []
  const collector = Logger.make((options) => {
    const parts = Array.isArray(options.message) ? options.message : [options.message]
    logged.push({ message: parts.map(String).join(" "), annotations: { ...options.fiber.getRef(References.CurrentLogAnnotations) } })
  })
  yield* injection.failFor([poisoned.id, stuck.id])
  yield* simulator.advanceTo(ISOLATION_START + 3 * DAY).pipe(Effect.provide(Logger.layer([collector])))
  const during = yield* observe
  yield* injection.failFor([])
  yield* simulator.advanceTo(ISOLATION_START + 5 * DAY)
  const after = yield* observe
  return { ids: { poisoned: poisoned.id, stuck: stuck.id }, during, after, logged }
})

/** What `dailyIsolationScenario` answers. */
export type DailyIsolationResult = Effect.Success<typeof dailyIsolationScenario>

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * What the scenario must show on any storage adapter, as the list of what it did not (empty when
 * all holds): tests assert `toEqual([])`, and a failure names each broken expectation.
 */
export const isolationViolations = (r: DailyIsolationResult): ReadonlyArray<string> => {
  const expectations: ReadonlyArray<readonly [boolean, string, unknown]> = [
    // While the failure lasts: the others are processed, the poisoned ones left as they were.
    [r.during.now === ISOLATION_START + 3 * DAY, "the clock reached the target of the first advance", r.during.now],
    [same(r.during.charged, { poisoned: 0, healthy: 1, elsewhere: 1 }), "the other subscriptions charged and the poisoned one did not", r.during.charged],
    [same(r.during.status, { stuck: "pending_submission", moving: "confirmed" }), "the other payment was collected and the poisoned one left pending", r.during.status],
    // Each failure is logged with its item's id.
    [same([...new Set(r.logged.filter((l) => l.message.includes(DAILY_ITEM_FAILED)).map((l) => l.annotations["item"]))].sort(), [r.ids.poisoned, r.ids.stuck].sort()),
      "each failure was logged with its item's id", r.logged.map((l) => l.annotations)],
    // Once the failure stops, the next runs process them.
    [r.after.now === ISOLATION_START + 5 * DAY, "the clock reached the target of the second advance", r.after.now],
    [same(r.after.charged, { poisoned: 1, healthy: 1, elsewhere: 1 }), "the poisoned subscription charged once it could", r.after.charged],
    [r.after.status.stuck === "submitted", "the poisoned payment was submitted once it could", r.after.status]
  ]
  return expectations.filter(([holds]) => !holds).map(([, what, seen]) => `not so: ${what} (saw ${JSON.stringify(seen)})`)
}
