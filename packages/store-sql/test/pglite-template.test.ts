import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { latestMigration, MIGRATIONS_TABLE } from "../src/migrations/index.ts"
import { migratedPglite, pgliteTemplate, templateKey } from "../src/pglite-template.ts"
import { PgliteStorage } from "../src/sql-storage.ts"

/**
 * A migrated template for in-memory databases: the first database of a process is migrated and
 * dumped, every later one loads the dump; each is a database of its own.
 */

const tablesIn = async (schema: string, db: Awaited<ReturnType<typeof migratedPglite>>) =>
  (await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema])).rows.map((r) => r.table_name)

describe("the migrated PGlite template", () => {
  it("gives fresh databases, migrated to the latest migration, that share nothing", { timeout: 120_000 }, async () => {
    const schema = "tmpl_fresh"
    const first = await migratedPglite({ schema })
    const second = await migratedPglite({ schema })
    try {
      expect(await tablesIn(schema, second)).toEqual(await tablesIn(schema, first))
      expect(await tablesIn(schema, second)).toContain("resources")
      const applied = await second.query<{ id: number }>(`SELECT max(migration_id) AS id FROM ${schema}.${MIGRATIONS_TABLE}`)
      expect(Number(applied.rows[0]?.id)).toBe(latestMigration)
      await first.query(`INSERT INTO ${schema}.due_work (organisation_id, kind, key, due_at, attempt) VALUES ('OR000000000003', 'k', 'x', 1, 0)`)
      const third = await migratedPglite({ schema })
      expect((await third.query(`SELECT * FROM ${schema}.due_work`)).rows).toEqual([])
      expect((await second.query(`SELECT * FROM ${schema}.due_work`)).rows).toEqual([])
      await third.close()
    } finally {
      await first.close()
      await second.close()
    }
  })

  it("is kept in a cache directory across processes, under a key naming PGlite, the migrations and the schema", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "paykit-template-test-"))
    try {
      const options = { schema: "tmpl_cached", cacheDir: dir, name: "cache-test" }
      const bytes = await pgliteTemplate(options)
      expect(existsSync(join(dir, `${templateKey(options)}.tar`))).toBe(true)
      expect(templateKey(options)).toContain(String(latestMigration))
      expect(await pgliteTemplate(options)).toBe(bytes)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("serves PgliteStorage in memory: each storage a database of its own", { timeout: 120_000 }, async () => {
    const count = (n: number) => Effect.scoped(Effect.gen(function*() {
      const context = yield* Layer.build(PgliteStorage())
      const sql = Context.get(context, SqlClient.SqlClient)
      yield* sql`INSERT INTO due_work (organisation_id, kind, key, due_at, attempt) VALUES (${`OR${n}`}, 'k', 'x', 1, 0)`
      return (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM due_work`)[0]?.n
    }))
    expect(await Effect.runPromise(Effect.all([count(1), count(2), count(3)]))).toEqual([1, 1, 1])
  })
})
