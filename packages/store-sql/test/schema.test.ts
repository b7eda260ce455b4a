import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { analyze } from "../src/maintenance.ts"
import { migrate } from "../src/migrations/index.ts"
import { isSchemaName } from "../src/schema.ts"
import { PostgresStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { freshSchemaName } from "./support/pglite.ts"

/**
 * The schema paykit's storage lives in: which names are taken, and on PostgreSQL, several
 * processes starting at once on a schema that does not exist yet (each creates it and migrates it).
 */

describe("schema names", () => {
  it("are plain lower-case identifiers, not PostgreSQL's own", () => {
    for (const name of ["paykit", "paykit_a", "_p1", "a".repeat(63)]) expect(isSchemaName(name), name).toBe(true)
    for (const name of ["", "Paykit", "1paykit", "pg_paykit", "pay-kit", "pay kit", "paykit;drop", "\"paykit\"", "a".repeat(64)]) {
      expect(isSchemaName(name), name).toBe(false)
    }
  })
})

describe.each(DATABASES)("storage upkeep on $name", ({ isolated }) => {
  it("analyses its own schema's tables, not a host's in another schema", { timeout: 120_000 }, async () => {
    const host = freshSchemaName()
    const plannerRows = (table: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(sql<{ rows: number }>`SELECT reltuples::int AS rows FROM pg_class WHERE oid = to_regclass(${table})`, (found) => found[0]?.rows))
    const [hostRows, ownRows] = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate()
        yield* sql.unsafe(`CREATE SCHEMA ${host}`)
        // No index: nothing but ANALYZE (or VACUUM) gives the planner its row count.
        yield* sql.unsafe(`CREATE TABLE ${host}.events (name text)`)
        yield* sql.unsafe(`INSERT INTO ${host}.events SELECT 'e' || n FROM generate_series(1, 10) n`)
        yield* analyze
        const counts = [yield* plannerRows(`${host}.events`), yield* plannerRows("paykit_migrations")]
        yield* sql.unsafe(`DROP SCHEMA ${host} CASCADE`)
        return counts
      }),
      Layer.fresh(isolated())
    ))
    expect(hostRows).toBe(-1)
    expect(ownRows).toBeGreaterThan(0)
  })
})

const url = process.env["DATABASE_URL"]

describe.skipIf(url === undefined)("storage on PostgreSQL in a schema of its own", () => {
  it("four start-ups at once on a missing schema make it once and migrate it once; the schema outranks the URL's search_path", { timeout: 120_000 }, async () => {
    const base = url ?? ""
    const schema = freshSchemaName()
    const admin = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
      Effect.runPromise(Effect.provide(effect, PgClient.layer({ url: Redacted.make(base), maxConnections: 1 })))
    // A URL naming another search path, as a host's might.
    const withOptions = `${base}${base.includes("?") ? "&" : "?"}options=${encodeURIComponent("-c search_path=public")}`
    const probe = Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ schema: string; outbox: string | null }>`SELECT current_schema() AS schema, to_regclass('outbox')::text AS outbox`)
    try {
      const started = await Promise.all(Array.from({ length: 4 }, () =>
        Effect.runPromise(Effect.provide(probe, Layer.fresh(PostgresStorage(withOptions, { schema, maxConnections: 2 }))))))
      for (const rows of started) expect(rows).toEqual([{ schema, outbox: "outbox" }])
      const applied = await admin(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.unsafe<{ n: number; d: number }>(`SELECT count(*)::int AS n, count(DISTINCT migration_id)::int AS d FROM ${schema}.paykit_migrations`)))
      expect(applied[0]?.n).toBeGreaterThan(0)
      expect(applied[0]?.n).toBe(applied[0]?.d)
    } finally {
      await admin(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)))
    }
  })
})
