import { Effect, Layer } from "effect"
import { DueWorkStore } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { analyzeGrown, STATISTICS_LOOK_MILLIS } from "../src/index.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG } from "./support/fixtures.ts"

/**
 * The planner's statistics keep up with the tables: a table that grew past what its last
 * `ANALYZE` saw is analysed again when due work is next claimed, by a polling worker and by an
 * advance alike, so the claimed work runs on plans for the tables' sizes. Autovacuum is off on the
 * table here, so on PostgreSQL only paykit analyses it.
 */

/** The planner's row estimate of `resources`. */
const estimatedRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ reltuples: number }>`SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = to_regclass('resources')`
  return rows[0]?.reltuples
})

/** `n` more customers' rows, numbered from `from`. */
const addRows = (from: number, n: number) =>
  Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
    sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
      SELECT ${ORG}, 'customers', 'CU' || lpad(i::text, 12, '0'), 1, now(), '{}'::jsonb, '{"given_name":"A customer"}'::json
      FROM generate_series(${from}::int, ${from + n - 1}::int) AS i`)

const lease = (realNow: number) => ({ owner: "statistics-test", realNow, until: realNow + 60_000 })

const onStorage = <A, E>(database: (typeof DATABASES)[number], body: Effect.Effect<A, E, SqlClient.SqlClient | DueWorkStore>) =>
  Effect.runPromise(Effect.provide(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`ALTER TABLE resources SET (autovacuum_enabled = false)`
      return yield* body
    }),
    SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
  ))

describe.each(DATABASES)("statistics that keep up with the tables on $name", (database) => {
  it("a poll's claim analyses a table grown past its statistics, at most once a look period", { timeout: 60_000 }, () =>
    onStorage(database, Effect.gen(function*() {
      const store = yield* DueWorkStore
      const now = Date.now()
      yield* addRows(1, 3_000)
      // Analysed empty when the storage started.
      const started = yield* estimatedRows
      expect(yield* store.claimDue(lease(now), 1)).toEqual([])
      const looked = yield* estimatedRows
      yield* addRows(3_001, 9_000)
      yield* store.claimDue(lease(now + STATISTICS_LOOK_MILLIS - 1), 1)
      const tooSoon = yield* estimatedRows
      yield* store.claimDue(lease(now + STATISTICS_LOOK_MILLIS), 1)
      return { started, looked, tooSoon, next: yield* estimatedRows }
    })).then((estimates) => expect(estimates).toEqual({ started: 0, looked: 3_000, tooSoon: 3_000, next: 12_000 })))

  it("an advance's claim analyses too", { timeout: 60_000 }, () =>
    onStorage(database, Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* addRows(1, 2_000)
      const next = yield* store.claimNextOf(ORG, Date.now(), lease(Date.now()))
      return { next: next._tag, estimate: yield* estimatedRows }
    })).then((seen) => expect(seen).toEqual({ next: "None", estimate: 2_000 })))

  it("a table is analysed again only once it has doubled, and a small one not at all", { timeout: 60_000 }, () =>
    onStorage(database, Effect.gen(function*() {
      yield* addRows(1, 20)
      const small = yield* analyzeGrown
      yield* addRows(21, 3_000)
      const grown = yield* analyzeGrown
      const again = yield* analyzeGrown
      // Half as many rows again is not a doubling.
      yield* addRows(3_021, 1_500)
      return { small, grown, again, half: yield* analyzeGrown }
    })).then((analysed) => expect(analysed).toEqual({ small: [], grown: ["resources"], again: [], half: [] })))
})
