import { OrganisationId } from "@paykit/core"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  decodeCommand,
  Events,
  InMemoryStorage,
  Mandates,
  PaymentCreateRequest,
  Payments,
  Payouts,
  sandboxEngineOn,
  Simulator,
  type EngineStorage
} from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The engine end to end (services, simulator, sandbox bank) on SQL storage, against the same
 * program on the engine's in-memory storage: with the same seed and clock, every id, state and
 * event must come out the same, so the SQL adapter changes nothing the engine can observe.
 */

const ORG = OrganisationId("OR0000000000AA")
const OTHER_ORG = OrganisationId("OR0000000000BB")
const START = Date.UTC(2026, 10, 23, 9, 0, 0)
const DAY = 86_400_000

const engineWith = <E>(storage: Layer.Layer<EngineStorage, E>) =>
  Layer.mergeAll(
    sandboxEngineOn(storage, { seed: 7 }),
    TestClock.layer()
  )

/** Two organisations collect payments over three weeks of simulated time; returns what the API would show. */
const scenario = Effect.gen(function*() {
  yield* TestClock.setTime(START)
  const payments = yield* Payments
  const good = yield* setUpPayer(ORG, { verifyCreditor: true, linkCreditor: false })
  const failing = yield* setUpPayer(OTHER_ORG, { accountHolderName: "Fail Payer", verifyCreditor: true, linkCreditor: false })
  const paymentBody = decodeCommand(PaymentCreateRequest, "payments")
  const paid = yield* payments.create(ORG, yield* paymentBody({ amount: 2500, currency: "GBP", links: { mandate: good.mandate.id } }))
  const cancelled = yield* payments.create(ORG, yield* paymentBody({ amount: 1000, currency: "GBP", links: { mandate: good.mandate.id } }))
  yield* payments.cancel(ORG, cancelled.id)
  const failed = yield* payments.create(OTHER_ORG, yield* paymentBody({ amount: 2500, currency: "GBP", links: { mandate: failing.mandate.id } }))
  yield* (yield* Simulator).advanceTo(START + 21 * DAY)
  const events = yield* Events
  return {
    payments: [yield* payments.get(ORG, paid.id), yield* payments.get(ORG, cancelled.id), yield* payments.get(OTHER_ORG, failed.id)],
    paymentList: yield* payments.list(ORG, {}),
    payouts: yield* (yield* Payouts).list(ORG, {}),
    mandates: [yield* (yield* Mandates).get(ORG, good.mandate.id), yield* (yield* Mandates).get(OTHER_ORG, failing.mandate.id)],
    events: [yield* events.list(ORG, { limit: 500 }), yield* events.list(OTHER_ORG, { limit: 500 })]
  }
})

describe.each(DATABASES)("the engine end to end on $name", (database) => {
  it("gives the same ids, states, payouts and events as on in-memory storage", { timeout: 120_000 }, async () => {
    const reference = await Effect.runPromise(Effect.provide(scenario, engineWith(InMemoryStorage)))
    const onSql = await Effect.runPromise(Effect.provide(
      scenario,
      engineWith(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated()))))
    ))
    // The scenario did what it says, so the comparison is of something.
    expect(reference.payments.map((p) => p.status)).toEqual(["paid_out", "cancelled", "failed"])
    expect(reference.payouts.items).toHaveLength(1)
    expect(reference.events[0]?.items.length).toBeGreaterThan(8)
    expect(JSON.parse(JSON.stringify(onSql))).toEqual(JSON.parse(JSON.stringify(reference)))
    expect(JSON.stringify(onSql)).toBe(JSON.stringify(reference))
  })
})
