import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { PGlite } from "@electric-sql/pglite"
import * as PgliteClient from "../src/pglite-client.ts"
import { isolatedPglite, sharedPglite } from "./support/pglite.ts"

const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | PgliteClient.PgliteClient>): Promise<A> =>
  Effect.runPromise(Effect.provide(effect, isolatedPglite()) as Effect.Effect<A, unknown>)

const withTable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE items (id integer primary key, name text not null, amount bigint, data jsonb)`
  return sql
})

const names = (sql: SqlClient.SqlClient) =>
  Effect.map(sql<{ name: string }>`SELECT name FROM items ORDER BY id`, (rows) => rows.map((r) => r.name))

const sql_n = (text: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return (yield* sql.unsafe<{ n: number }>(text, [1]))[0]?.n
  })

class Boom {
  readonly _tag = "Boom"
}

describe("PGlite SqlClient", () => {
  it("runs queries with parameters and helpers", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      yield* sql`INSERT INTO items ${sql.insert([{ id: 1, name: "a" }, { id: 2, name: "b'; DROP TABLE items; --" }])}`
      const rows = yield* sql<{ id: number; name: string }>`SELECT id, name FROM items WHERE id IN ${sql.in([1, 2])} ORDER BY id`
      expect(rows).toEqual([{ id: 1, name: "a" }, { id: 2, name: "b'; DROP TABLE items; --" }])
      const one = yield* sql<{ n: number }>`SELECT ${41}::int + 1 AS n`
      expect(one).toEqual([{ n: 42 }])
      const values = yield* sql`SELECT id, name FROM items ORDER BY id`.values
      expect(values).toEqual([[1, "a"], [2, "b'; DROP TABLE items; --"]])
      const unsafe = yield* sql.unsafe<{ name: string }>("SELECT name FROM items WHERE id = $1", [1])
      expect(unsafe).toEqual([{ name: "a" }])
    })))

  it("sends JSON through the json fragment and reads jsonb back as values", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      const client = yield* PgliteClient.PgliteClient
      const data = { nested: { list: [1, "two", null] }, quote: "it's" }
      yield* sql`INSERT INTO items (id, name, data) VALUES (1, 'j', ${client.json(data)})`
      const rows = yield* sql<{ data: unknown }>`SELECT data FROM items`
      expect(rows[0]?.data).toEqual(data)
    })))

  it("commits a transaction and rolls one back on failure", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      yield* sql.withTransaction(sql`INSERT INTO items (id, name) VALUES (1, 'kept')`)
      const failed = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (id, name) VALUES (2, 'lost')`
        return yield* Effect.fail(new Boom())
      })))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* names(sql)).toEqual(["kept"])
    })))

  it("rolls a nested transaction back to its savepoint and keeps the outer work", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (id, name) VALUES (1, 'outer')`
        const inner = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO items (id, name) VALUES (2, 'inner')`
          return yield* Effect.fail(new Boom())
        })))
        expect(Exit.isFailure(inner)).toBe(true)
        yield* sql.withTransaction(sql`INSERT INTO items (id, name) VALUES (3, 'second inner')`)
      }))
      expect(yield* names(sql)).toEqual(["outer", "second inner"])
    })))

  it("answers an unprepared statement without parameters (a single exchange) as the prepared one does", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      yield* sql`INSERT INTO items ${sql.insert([{ id: 1, name: "a", amount: 7 }, { id: 2, name: "b", amount: null }])}`
      const prepared = yield* sql`SELECT id, name, amount FROM items ORDER BY id`
      const unprepared = yield* sql`SELECT id, name, amount FROM items ORDER BY id`.unprepared
      expect(unprepared).toEqual(prepared)
      expect(unprepared).toHaveLength(2)
      // With parameters, an unprepared statement still binds them.
      expect(yield* sql`SELECT name FROM items WHERE id = ${2}`.unprepared).toEqual([{ name: "b" }])
    })))

  it("reports a unique violation as a typed SqlError reason", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      yield* sql`INSERT INTO items (id, name) VALUES (1, 'a')`
      const error = yield* Effect.flip(sql`INSERT INTO items (id, name) VALUES (1, 'b')`)
      expect(error.reason._tag).toBe("UniqueViolation")
      const syntax = yield* Effect.flip(sql.unsafe("SELEC 1"))
      expect(syntax.reason._tag).toBe("SqlSyntaxError")
    })))

  it("keeps concurrent transactions from interleaving", () =>
    run(Effect.gen(function*() {
      const sql = yield* withTable
      // Each transaction reads the count, yields, then writes count+1: interleaving would lose updates.
      yield* sql`INSERT INTO items (id, name, amount) VALUES (1, 'counter', 0)`
      const bump = sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql<{ amount: number }>`SELECT amount::int AS amount FROM items WHERE id = 1`
        yield* Effect.sleep("1 millis")
        yield* sql`UPDATE items SET amount = ${(rows[0]?.amount ?? 0) + 1} WHERE id = 1`
      }))
      // A plain statement racing the transactions must not land inside one of them either.
      const outsider = Effect.flatMap(Effect.sleep("2 millis"), () => sql`INSERT INTO items (id, name) VALUES (2, 'outsider')`)
      const fiber = yield* Effect.forkChild(outsider)
      yield* Effect.all(Array.from({ length: 20 }, () => bump), { concurrency: "unbounded", discard: true })
      yield* Fiber.join(fiber)
      const rows = yield* sql<{ amount: number }>`SELECT amount::int AS amount FROM items WHERE id = 1`
      expect(rows[0]?.amount).toBe(20)
      expect(yield* names(sql)).toEqual(["counter", "outsider"])
    })))

  it("applies name transforms both ways", () =>
    Effect.runPromise(Effect.gen(function*() {
      const instance = yield* Effect.promise(sharedPglite)
      const schema = `t_transform_${Date.now()}`
      yield* Effect.promise(() => instance.query(`CREATE SCHEMA ${schema}`))
      const client = PgliteClient.layer({
        instance,
        searchPath: schema,
        transformQueryNames: (s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        transformResultNames: (s) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
      })
      const rows = yield* Effect.provide(
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE people (person_id int, given_name text)`
          yield* sql`INSERT INTO people ${sql.insert({ personId: 1, givenName: "Ada" })}`
          return yield* sql`SELECT * FROM people`
        }),
        client
      )
      yield* Effect.promise(() => instance.query(`DROP SCHEMA ${schema} CASCADE`))
      expect(rows).toEqual([{ personId: 1, givenName: "Ada" }])
    })))

  describe("named statements", () => {
    // An instance of its own: the first client sets the session's statement limit.
    const LIMIT = 4
    let instance: PGlite | undefined
    const session = async (): Promise<PGlite> => (instance ??= await PGlite.create())
    afterAll(() => instance?.close())
    const inSchema = <A, E>(
      schema: string,
      effect: Effect.Effect<A, E, SqlClient.SqlClient | PgliteClient.PgliteClient>
    ): Promise<A> =>
      Effect.runPromise(Effect.gen(function*() {
        const db = yield* Effect.promise(session)
        yield* Effect.promise(() => db.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`))
        return yield* Effect.provide(effect, PgliteClient.layer({ instance: db, searchPath: schema, preparedStatements: LIMIT }))
      }) as Effect.Effect<A, unknown>)
    interface Held {
      readonly statement: string
      readonly generic_plans: number
      readonly custom_plans: number
    }
    const held = (db: PGlite) =>
      db.query<Held>(`SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name LIKE 'paykit\\_%'`)
        .then((result) => result.rows)

    it("prepares a statement once and plans it generically after PostgreSQL's five custom plans", async () => {
      const text = "SELECT name FROM items WHERE id = $1"
      const answers = await inSchema("named_reuse", Effect.gen(function*() {
        const sql = yield* withTable
        yield* sql`INSERT INTO items ${sql.insert([{ id: 1, name: "a" }, { id: 2, name: "b" }])}`
        return yield* Effect.forEach([1, 2, 1, 2, 1, 2, 1, 2, 1, 2], (id) => sql.unsafe<{ name: string }>(text, [id]))
      }))
      expect(answers.map((rows) => rows[0]?.name)).toEqual(["a", "b", "a", "b", "a", "b", "a", "b", "a", "b"])
      const statements = (await held(await session())).filter((row) => row.statement === text)
      expect(statements).toHaveLength(1)
      expect(statements[0]?.custom_plans).toBe(5)
      expect(statements[0]?.generic_plans).toBe(5)
    })

    it("answers a raw run as PGlite's query does: the rows, their fields and the rows affected", async () => {
      const raw = await inSchema("named_raw", Effect.gen(function*() {
        const sql = yield* withTable
        yield* sql`INSERT INTO items ${sql.insert([{ id: 1, name: "a" }, { id: 2, name: "b" }])}`
        const updated = yield* sql`UPDATE items SET name = ${"c"} WHERE id > ${0}`.raw
        const read = yield* sql`SELECT id, name FROM items WHERE id = ${1}`.raw
        return { updated, read }
      }))
      expect(raw.updated).toMatchObject({ rows: [], affectedRows: 2, rowCount: 2 })
      expect(raw.read).toMatchObject({ rows: [{ id: 1, name: "c" }], fields: [{ name: "id" }, { name: "name" }], affectedRows: 0 })
    })

    it("keeps at most its limit of statements, closing the least recently used", async () => {
      const texts = Array.from({ length: LIMIT + 3 }, (_, i) => `SELECT ${i} + $1::int AS n`)
      const sums = await inSchema("named_limit", Effect.forEach(texts, (text) => sql_n(text)))
      expect(sums).toEqual(texts.map((_, i) => i + 1))
      const statements = (await held(await session())).map((row) => row.statement)
      expect(statements.length).toBeLessThanOrEqual(LIMIT)
      expect(statements).toEqual(expect.arrayContaining(texts.slice(-LIMIT)))
      expect(statements).not.toContain(texts[0])
    })

    it("resolves a statement's names in the schema of the client that runs it", async () => {
      const read = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return (yield* sql<{ name: string }>`SELECT name FROM items WHERE id = ${1}`)[0]?.name
      })
      const seed = (name: string) =>
        Effect.gen(function*() {
          const sql = yield* withTable
          yield* sql`INSERT INTO items (id, name) VALUES (1, ${name})`
        })
      await inSchema("named_left", seed("left"))
      await inSchema("named_right", seed("right"))
      expect(await inSchema("named_left", read)).toBe("left")
      expect(await inSchema("named_right", read)).toBe("right")
      expect(await inSchema("named_left", read)).toBe("left")
    })

    it("prepares a statement again when its table changes under it or the session drops it", async () => {
      const all = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql`SELECT * FROM items WHERE id = ${1}`
      })
      await inSchema("named_stale", Effect.gen(function*() {
        const sql = yield* withTable
        yield* sql`INSERT INTO items (id, name) VALUES (1, 'a')`
      }))
      expect(await inSchema("named_stale", all)).toEqual([{ id: 1, name: "a", amount: null, data: null }])
      const db = await session()
      await db.query("ALTER TABLE named_stale.items ADD COLUMN note text")
      expect(await inSchema("named_stale", all)).toEqual([{ id: 1, name: "a", amount: null, data: null, note: null }])
      await db.query("DEALLOCATE ALL")
      expect(await inSchema("named_stale", all)).toEqual([{ id: 1, name: "a", amount: null, data: null, note: null }])
    })

    it("waits for a transaction another user of the instance opened, instead of running inside it", async () => {
      const seen = await inSchema("named_shared", Effect.gen(function*() {
        const sql = yield* withTable
        const db = yield* Effect.promise(session)
        let inserted: () => void = () => undefined
        const insertedYet = new Promise<void>((resolve) => (inserted = resolve))
        const theirs = db.transaction(async (tx) => {
          await tx.query("INSERT INTO named_shared.items (id, name) VALUES (1, 'uncommitted')")
          inserted()
          await new Promise((resolve) => setTimeout(resolve, 50))
          await tx.rollback()
        })
        yield* Effect.promise(() => insertedYet)
        const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM items WHERE id = ${1}`
        yield* Effect.promise(() => theirs)
        return rows
      }))
      expect(seen).toEqual([{ n: 0 }])
    })

    it("keeps a statement that failed to parse out of the session, and reports its error", async () => {
      const error = await inSchema("named_errors", Effect.flip(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql.unsafe("SELECT nothing FROM nowhere WHERE id = $1", [1])
      })))
      expect(error.reason._tag).toBe("SqlSyntaxError")
      const statements = (await held(await session())).map((row) => row.statement)
      expect(statements).not.toContain("SELECT nothing FROM nowhere WHERE id = $1")
    })
  })

  describe("on a data directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "paykit-pglite-"))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it("keeps committed data across a restart and drops uncommitted work", { timeout: 60_000 }, async () => {
      const session = (effect: Effect.Effect<void, unknown, SqlClient.SqlClient>) =>
        Effect.runPromise(Effect.provide(effect, Layer.fresh(PgliteClient.layer({ dataDir: dir }))))
      await session(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (body text)`
        yield* sql.withTransaction(sql`INSERT INTO notes VALUES ('committed')`)
        yield* Effect.exit(sql.withTransaction(Effect.flatMap(sql`INSERT INTO notes VALUES ('rolled back')`, () => Effect.fail(new Boom()))))
      }))
      await session(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ body: string }>`SELECT body FROM notes`
        expect(rows).toEqual([{ body: "committed" }])
      }))
    })
  })
})
