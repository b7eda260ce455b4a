import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { unsafeAmount, OrganisationId } from "@paykit/core"
import { Payments, sandboxEngineOn, SIDE_RECORDS_KIND, sideRecordsDueWork, Simulator, Subscriptions } from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { MIGRATIONS } from "../src/migrations/index.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * A database made before the daily run's side records: the records the engine keeps as resources
 * move are taken away (as if never written), migration 0056 is run as an upgrade runs it, and
 * the `side_records` kind it schedules makes them again, equal to those the engine kept: the same
 * rows with the same due days, so the daily run reads them on the same days.
 */

const ORG = OrganisationId("OR0000000000SR")
const START = Date.UTC(2026, 10, 23, 9, 0, 0)
const DAY = 86_400_000

interface SideRow {
  readonly resource_type: string
  readonly id: string
  readonly due_on: string | null
}

const SIDE_TYPES = ["mandate_dormancies", "payment_reversals", "subscription_schedules"] as const

const sideRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<SideRow>`SELECT resource_type, id, filters->>'due_on' AS due_on FROM resources
    WHERE organisation_id = ${ORG} AND resource_type IN ${sql.in(SIDE_TYPES)} ORDER BY resource_type, id`
})

/** What a database from before the records holds: none of the two records, schedules without `due_on`. */
const forgetSideRecords = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM resources WHERE resource_type IN ('mandate_dormancies', 'payment_reversals')`
  yield* sql`UPDATE resources SET data = (data::jsonb - 'due_on')::json, filters = filters - 'due_on' WHERE resource_type = 'subscription_schedules'`
  yield* sql`DELETE FROM due_work`
})

describe.each(DATABASES)("side records of an older database on $name", (database) => {
  // One layer value, so the engine and the test's statements share one database (layers are memoised).
  const storage = SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
  it("migration 0056 schedules side_records, which makes the missing records as the engine kept them", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const payer = yield* setUpPayer(ORG, { accountHolderName: "Chargeback Payer", verifyCreditor: true, linkCreditor: false })
        const payments = yield* Payments
        yield* (yield* Subscriptions).create(ORG, { amount: unsafeAmount(1500), currency: "GBP", interval_unit: "monthly", links: { mandate: payer.mandate.id } })
        yield* payments.create(ORG, { amount: unsafeAmount(2500), currency: "GBP", links: { mandate: payer.mandate.id } })
        // The payments (this one and the subscription's first) are collected and their chargebacks
        // kept, due five working days after their charge dates; the schedule's next day is kept.
        yield* (yield* Simulator).advanceTo(START + 7 * DAY)
        const kept = yield* sideRows
        expect(new Set(kept.map((row) => row.resource_type))).toEqual(new Set(SIDE_TYPES))
        expect(kept.every((row) => row.due_on !== null)).toBe(true)

        yield* forgetSideRecords
        expect((yield* sideRows).map((row) => [row.resource_type, row.due_on])).toEqual([["subscription_schedules", null]])
        // The migration as an upgrade from before it runs it.
        const upgrade = MIGRATIONS["0056_side_records_backfill"]
        if (upgrade === undefined) return yield* Effect.die("no migration 0056")
        yield* upgrade
        const sql = yield* SqlClient.SqlClient
        const scheduled = yield* sql<{ organisation_id: string; kind: string }>`SELECT organisation_id, kind FROM due_work`
        expect(scheduled).toEqual([{ organisation_id: ORG, kind: SIDE_RECORDS_KIND }])

        const [kind] = (yield* sideRecordsDueWork).kinds
        if (kind === undefined) return yield* Effect.die("no side_records kind")
        yield* kind.run({ organisation: ORG, kind: SIDE_RECORDS_KIND, key: "migration-0056", dueAt: 0, attempt: 0 })
        const made = yield* sideRows
        // The schedule's day is today (read by the next run, which keeps its own day from then on).
        const today = new Date(START + 7 * DAY).toISOString().slice(0, 10)
        expect(made).toEqual(kept.map((row) => row.resource_type === "subscription_schedules" ? { ...row, due_on: today } : row))
        // Run again (a crash before its completion): nothing is made twice.
        yield* kind.run({ organisation: ORG, kind: SIDE_RECORDS_KIND, key: "migration-0056", dueAt: 0, attempt: 1 })
        expect(yield* sideRows).toEqual(made)
      }),
      Layer.mergeAll(sandboxEngineOn(storage, { seed: 56 }), TestClock.layer()).pipe(Layer.provideMerge(storage))
    )))
})
