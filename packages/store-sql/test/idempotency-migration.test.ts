import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { migrate } from "../src/migrations/index.ts"
import { DATABASES } from "./support/databases.ts"

const columnsOf = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ column_name: string }>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'idempotency_keys' ORDER BY column_name`
  return rows.map((r) => r.column_name)
})

const KEPT_COLUMNS = ["created_at", "key", "organisation_id", "resource_id"]

/**
 * Migration 0063 gives `idempotency_keys` its resource id. Before it, the server's migration 0005
 * made that change; a database that ran it must upgrade untouched, and one that did not must keep
 * the ids of its completed keys and lose its incomplete claims.
 */
describe.each(DATABASES)("idempotency keys across migration 0063 on $name", (database) => {
  it("a database whose server migration already changed the table upgrades untouched", { timeout: 60_000 }, async () => {
    const result = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(62)
        // What the server's migration 0005 did before the change moved here.
        yield* sql.unsafe(`ALTER TABLE idempotency_keys ADD COLUMN resource_id text COLLATE "C"`)
        yield* sql.unsafe(`ALTER TABLE idempotency_keys DROP COLUMN fingerprint, DROP COLUMN response, DROP COLUMN completed_at`)
        yield* sql`INSERT INTO idempotency_keys (organisation_id, key, resource_id) VALUES ('OR000000000003', 'k1', 'PM1')`
        yield* migrate()
        const rows = yield* sql<{ key: string; resource_id: string }>`SELECT key, resource_id FROM idempotency_keys`
        return { columns: yield* columnsOf, rows: rows.map((r) => [r.key, r.resource_id]) }
      }),
      database.isolated()
    ))
    expect(result).toEqual({ columns: KEPT_COLUMNS, rows: [["k1", "PM1"]] })
  })

  it("an older table keeps its completed keys' resources and drops incomplete claims", { timeout: 60_000 }, async () => {
    const result = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(62)
        yield* sql`INSERT INTO idempotency_keys (organisation_id, key, fingerprint, response, completed_at)
          VALUES ('OR000000000003', 'done', 'f', ${JSON.stringify({ resourceId: "PM1" })}::jsonb, now())`
        yield* sql`INSERT INTO idempotency_keys (organisation_id, key, fingerprint) VALUES ('OR000000000003', 'claimed', 'f')`
        yield* migrate()
        const rows = yield* sql<{ key: string; resource_id: string }>`SELECT key, resource_id FROM idempotency_keys`
        return { columns: yield* columnsOf, rows: rows.map((r) => [r.key, r.resource_id]) }
      }),
      database.isolated()
    ))
    expect(result).toEqual({ columns: KEPT_COLUMNS, rows: [["done", "PM1"]] })
  })
})
