import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { customers, DueWorker, DueWorkStore, RepositoryBackend } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import {
  MAINTENANCE_HOUR_UTC,
  MAINTENANCE_KIND,
  MAINTENANCE_ORGANISATION,
  nextMaintenanceAt,
  scheduleMaintenance,
  storageMaintenance
} from "../src/index.ts"
import { migrate } from "../src/migrations/index.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG } from "./support/fixtures.ts"

const DAY_MS = 86_400_000

describe("the maintenance instant", () => {
  it("is the first MAINTENANCE_HOUR_UTC o'clock strictly after now", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
      const at = nextMaintenanceAt(now)
      expect(at).toBeGreaterThan(now)
      expect(at - now).toBeLessThanOrEqual(DAY_MS)
      expect(new Date(at).getUTCHours()).toBe(MAINTENANCE_HOUR_UTC)
      expect(at % 3_600_000).toBe(0)
    }))
  })
})

/** The planner's row estimate of `resources`: -1 until the table was first analysed (or vacuumed). */
const estimatedRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ reltuples: number }>`SELECT reltuples::float8 AS reltuples FROM pg_class
    WHERE oid = to_regclass('resources')`
  return rows[0]?.reltuples
})

describe.each(DATABASES)("storage maintenance on $name", (database) => {
  it("starting storage on a database that needed migrations analyses it", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(7)
        yield* sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
          SELECT ${ORG}, 'customers', 'CU' || lpad(i::text, 12, '0'), 1, now(), '{}'::jsonb, '{}'::json FROM generate_series(1, 40) AS i`
        const before = yield* estimatedRows
        yield* Layer.build(SqlStorage)
        return { before, after: yield* estimatedRows }
      }).pipe(Effect.scoped),
      Layer.orDie(database.isolated())
    )).then((rows) => expect(rows).toEqual({ before: -1, after: 40 })))

  it("the due-work worker analyses the database when maintenance falls due, then schedules the next day's", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const backend = yield* RepositoryBackend
        yield* backend.repository(customers).insertAll(ORG, Array.from({ length: 30 }, (_, i) => sampleCustomer(i + 1)))
        const before = yield* estimatedRows
        // Fell due yesterday (a process that was down): one run, and the next is after now.
        yield* scheduleMaintenance(Date.now() - 2 * DAY_MS)
        const worker = yield* DueWorker
        expect(yield* worker.runDue).toBe(1)
        const after = yield* estimatedRows
        const pending = yield* (yield* DueWorkStore).pendingOf(MAINTENANCE_ORGANISATION, MAINTENANCE_KIND)
        return { before, after, pending: pending.map((item) => item.dueAt > Date.now() && item.dueAt <= Date.now() + DAY_MS) }
      }),
      Layer.unwrap(Effect.map(storageMaintenance, (maintenance) => DueWorker.layer([maintenance], { owner: "test" }))).pipe(
        Layer.provideMerge(SqlStorage),
        Layer.provideMerge(database.isolated()),
        Layer.orDie
      )
    )).then(({ before, after, pending }) => {
      // Analysed at start-up, empty; the run sees the rows written since.
      expect(before).toBe(0)
      expect(after).toBe(30)
      expect(pending).toEqual([true])
    }))
})
