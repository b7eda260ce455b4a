import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { DATA_MIGRATION_IDS, MIGRATION_IDS, migrate } from "../src/migrations/index.ts"
import { DATABASES } from "./support/databases.ts"

/** The shape of the current schema: columns, indexes, constraints, triggers and functions, schema name left out. */
const describeSchema = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = yield* sql`
    SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, collation_name
    FROM information_schema.columns WHERE table_schema = current_schema()
    ORDER BY table_name, ordinal_position`
  const indexes = yield* sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname`
  const constraints = yield* sql`
    SELECT c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = current_schema() ORDER BY c.conname`
  const triggers = yield* sql`
    SELECT trigger_name, event_manipulation, event_object_table, action_statement, action_timing
    FROM information_schema.triggers WHERE trigger_schema = current_schema() ORDER BY trigger_name, event_manipulation`
  // A migration may only redefine a function (0030 lets retention delete events).
  const functions = yield* sql`
    SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = current_schema() ORDER BY p.proname`
  const schema = yield* sql<{ s: string }>`SELECT current_schema() AS s`
  const name = schema[0]?.s ?? ""
  const strip = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(`${name}.`, ""))
  return strip({ columns, indexes, constraints, triggers, functions })
})

describe.each(DATABASES)("migrations on $name", (database) => {
  it("a database migrated step by step equals one migrated from empty", { timeout: 60_000 }, async () => {
    const fromEmpty = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const applied = yield* migrate()
        expect(applied.map(([id]) => id)).toEqual(MIGRATION_IDS)
        return yield* describeSchema
      }),
      database.isolated()
    ))
    const stepByStep = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const shapes: Array<unknown> = []
        for (const step of MIGRATION_IDS) {
          const applied = yield* migrate(step)
          expect(applied.map(([id]) => id)).toEqual([step])
          shapes.push(yield* describeSchema)
        }
        // Running again applies nothing.
        expect(yield* migrate()).toEqual([])
        return shapes
      }),
      database.isolated()
    ))
    expect(stepByStep[stepByStep.length - 1]).toEqual(fromEmpty)
    // Every step changed the schema, but those that only move data: no migration is empty.
    for (let i = 1; i < stepByStep.length; i++) {
      if (!DATA_MIGRATION_IDS.has(MIGRATION_IDS[i] ?? 0)) expect(stepByStep[i]).not.toEqual(stepByStep[i - 1])
    }
    expect(JSON.stringify(fromEmpty)).toContain("outbox_enqueue_appended")
  })
})
