import { PgClient } from "@effect/sql-pg"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
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
  it("runs on a migrated in-memory PGlite without DATABASE_URL", { timeout: 60_000 }, async () => {
    const result = await Effect.runPromise(Effect.provide(probe, withEnv({})))
    expect(result).toMatchObject({ driver: "pglite", pending: 0, migrated: true })
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
    await admin(`CREATE SCHEMA ${schema}`)
    try {
      const separator = url.includes("?") ? "&" : "?"
      const scoped = `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`
      const result = await Effect.runPromise(Effect.provide(probe, withEnv({ DATABASE_URL: scoped })))
      expect(result).toMatchObject({ schema, pending: 0, migrated: true })
      expect(result.driver).not.toBe("pglite")
    } finally {
      await admin(`DROP SCHEMA ${schema} CASCADE`)
    }
  })
})
