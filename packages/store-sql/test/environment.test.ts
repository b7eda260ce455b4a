import { PgClient } from "@effect/sql-pg"
import { Cause, ConfigProvider, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { Outbox } from "../src/outbox.ts"
import { StorageFromEnvironment } from "../src/sql-storage.ts"
import { freshSchemaName } from "./support/pglite.ts"

const probe = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ schema: string; migrated: boolean }>`
    SELECT current_schema() AS schema, to_regclass('outbox') IS NOT NULL AS migrated`
  return { driver: sql.driver, pending: yield* (yield* Outbox).pending, ...rows[0] }
})

const withEnv = (env: Record<string, string>) =>
  Layer.provide(StorageFromEnvironment(), ConfigProvider.layer(ConfigProvider.fromEnv({ env })))

describe("StorageFromEnvironment", () => {
  it("runs on a migrated in-memory PGlite without DATABASE_URL, in schema paykit", { timeout: 60_000 }, async () => {
    const result = await Effect.runPromise(Effect.provide(probe, withEnv({})))
    expect(result).toMatchObject({ driver: "pglite", pending: 0, migrated: true, schema: "paykit" })
  })

  it("refuses a PAYKIT_DB_SCHEMA that is not a plain lower-case name", async () => {
    const exit = await Effect.runPromiseExit(Effect.provide(probe, withEnv({ PAYKIT_DB_SCHEMA: "public; DROP TABLE x" })))
    expect(exit._tag === "Failure" ? Cause.pretty(exit.cause) : "succeeded").toContain("schema name")
  })

  const url = process.env["DATABASE_URL"]
  it.skipIf(url === undefined)("runs on a migrated PostgreSQL with DATABASE_URL", { timeout: 60_000 }, async () => {
    if (url === undefined) return
    const schema = freshSchemaName()
    const admin = (statement: string) =>
      Effect.runPromise(Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)),
        PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })
      ))
    try {
      // The schema is PAYKIT_DB_SCHEMA's, made by the storage (it does not exist before).
      const result = await Effect.runPromise(Effect.provide(probe, withEnv({ DATABASE_URL: url, PAYKIT_DB_SCHEMA: schema })))
      expect(result).toMatchObject({ schema, pending: 0, migrated: true })
      expect(result.driver).not.toBe("pglite")
    } finally {
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    }
  })
})
