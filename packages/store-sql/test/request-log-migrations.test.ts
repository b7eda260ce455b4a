import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { MIGRATIONS } from "../src/migrations/index.ts"
import { migrateRequestLog, PgliteClient, REQUEST_LOG_MIGRATIONS, REQUEST_LOG_MIGRATIONS_TABLE } from "../src/request-log.ts"

/**
 * The server's request log thread keeps `request_log` in a database of its own, migrated by its
 * own set: a migration of the table added to store-sql's set must be added to that one too, or a
 * thread's database would never get it.
 */
describe("the request log's own migrations", () => {
  it("are every migration of store-sql's set that names request_log, the same effects under the same names, in its order", () => {
    const ofTheLog = Object.entries(MIGRATIONS).filter(([name]) => name.includes("request_log"))
    expect(ofTheLog.length).toBeGreaterThan(0)
    expect(Object.entries(REQUEST_LOG_MIGRATIONS)).toEqual(ofTheLog)
  })

  it("make the table on an empty database, record what ran, and run nothing a second time", { timeout: 60_000 }, async () => {
    const r = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const first = yield* migrateRequestLog
        const again = yield* migrateRequestLog
        const sql = yield* SqlClient.SqlClient
        const recorded = yield* sql<{ readonly name: string }>`SELECT name FROM ${sql(REQUEST_LOG_MIGRATIONS_TABLE)} ORDER BY migration_id`
        const [table] = yield* sql<{ readonly present: boolean }>`SELECT to_regclass('request_log') IS NOT NULL AS present`
        return { first: first.map(([, name]) => name), again, recorded: recorded.map((row) => row.name), present: table?.present }
      }),
      PgliteClient.layer({})
    ))
    expect(r).toEqual({
      first: ["request_log", "request_log_json"],
      again: [],
      recorded: ["request_log", "request_log_json"],
      present: true
    })
  })
})
