import { PGlite } from "@electric-sql/pglite"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { DuplicateId, StorageError } from "@paykit/core"
import { Creditors, testEngine, Transactor } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { ORG, setUpPayment } from "../../../examples/engine-program.ts"
import { PgliteStorage, SqlStorage } from "../src/sql-storage.ts"
import { freshSchemaName } from "../src/testing.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * A storage fault reaches the embedder as a typed `StorageError` (`Effect.catchTag` catches it), a
 * duplicate id as a typed `DuplicateId`: issue 45, "Every failure typed". Until then both were
 * defects (`Layer.orDie` in the docs, `DuplicateId: creditors CR… exists already` on a re-run).
 */

const START = Date.UTC(2026, 10, 23, 9)
const TIMEOUT_MS = 120_000
const CREDITOR = { name: "Acme Gym", country_code: "GB", creditor_type: "company" } as const

/** The engine on `client` (a built client's context), built in the caller's scope. */
const engineOn = (client: Context.Context<SqlClient.SqlClient>) =>
  Layer.build(testEngine({ seed: 1, start: START, storage: SqlStorage.pipe(Layer.provide(Layer.succeedContext(client))) }))

/** The value a caught failure answers, in place of the operation's success (`undefined`). */
const failed = <E>(e: E) => Effect.succeed(e)

describe("storage faults are typed", () => {
  for (const db of DATABASES) {
    it(`a table dropped under the engine fails writes and reads with StorageError, not retryable, on ${db.name}`, async () => {
      const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const client = yield* Layer.build(db.isolated())
        const engine = yield* engineOn(client)
        return yield* Effect.provideContext(Effect.gen(function*() {
          const creditors = yield* Creditors
          const made = yield* creditors.create(ORG, CREDITOR)
          yield* Effect.orDie(Context.get(client, SqlClient.SqlClient).unsafe("DROP TABLE resources CASCADE"))
          // As an embedder handles it: by its tag.
          const write = yield* creditors.create(ORG, CREDITOR).pipe(Effect.as(undefined), Effect.catchTag("StorageError", failed))
          const read = yield* creditors.get(ORG, made.id).pipe(Effect.as(undefined), Effect.catchTag("StorageError", failed))
          const list = yield* creditors.list(ORG, {}).pipe(Effect.as(undefined), Effect.catchTag("StorageError", failed))
          return { write, read, list }
        }), engine)
      })))
      for (const failure of [r.write, r.read, r.list]) {
        expect(failure?._tag).toBe("StorageError")
        expect(failure?.retryable).toBe(false)
      }
      expect(r.read?.operation).toBe("get creditors")
    }, TIMEOUT_MS)

    it(`re-running the guide's program on the same tables fails with a typed DuplicateId, on ${db.name}`, async () => {
      const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const client = yield* Layer.build(db.isolated())
        // Two runs, as two processes would: each builds the engine anew, with the same seed.
        const first = yield* Effect.scoped(Effect.flatMap(engineOn(client), (engine) => Effect.provideContext(setUpPayment, engine)))
        const again = yield* Effect.scoped(Effect.flatMap(engineOn(client), (engine) =>
          Effect.provideContext(setUpPayment.pipe(Effect.as(undefined), Effect.catchTag("DuplicateId", failed)), engine)))
        return { first, again }
      })))
      const again: DuplicateId | undefined = r.again
      expect(again?._tag).toBe("DuplicateId")
      expect(again).toMatchObject({ resource: "creditors", id: r.first.creditor.id })
    }, TIMEOUT_MS)
  }

  it("a closed PGlite fails the engine's operations with StorageError", async () => {
    const instance = await PGlite.create()
    const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const engine = yield* Layer.build(testEngine({ seed: 1, start: START, storage: PgliteStorage({ instance }) }))
      return yield* Effect.provideContext(Effect.gen(function*() {
        const creditors = yield* Creditors
        yield* creditors.create(ORG, CREDITOR)
        yield* Effect.promise(() => instance.close())
        return yield* creditors.create(ORG, CREDITOR).pipe(Effect.as(undefined), Effect.catchTag("StorageError", failed))
      }), engine)
    })))
    const failure: StorageError | undefined = r
    expect(failure?._tag).toBe("StorageError")
  }, TIMEOUT_MS)

  const url = process.env["DATABASE_URL"]
  it.skipIf(url === undefined)("a PostgreSQL connection killed in a unit of work fails it with a retryable StorageError, and nothing is kept", async () => {
    if (url === undefined) return
    // Only this test's connection is killed: it carries an application name of its own.
    const schema = freshSchemaName()
    const application = `paykit_${schema}`
    const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const admin = Context.get(yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), SqlClient.SqlClient)
      yield* Effect.acquireRelease(
        Effect.orDie(admin.unsafe(`CREATE SCHEMA ${schema}`)),
        () => Effect.ignore(admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
      )
      const client = PgClient.layer({ url: Redacted.make(url), startupParameters: { search_path: schema, application_name: application }, maxConnections: 1 })
      const engine = yield* Layer.build(testEngine({ seed: 1, start: START, storage: SqlStorage.pipe(Layer.provide(client)) }))
      const kill = Effect.orDie(admin.unsafe("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [application]))
      return yield* Effect.provideContext(Effect.gen(function*() {
        const creditors = yield* Creditors
        // The creation joins the unit of work; its connection dies before the unit's next statement.
        const failure = yield* (yield* Transactor).transaction(Effect.gen(function*() {
          yield* creditors.create(ORG, CREDITOR)
          yield* kill
          return yield* creditors.list(ORG, {})
        })).pipe(Effect.as(undefined), Effect.catchTag("StorageError", failed))
        // The pool opens a new connection: the engine goes on, without the creditor.
        return { failure, kept: (yield* creditors.list(ORG, {})).items.length }
      }), engine)
    })))
    expect(r.failure?._tag).toBe("StorageError")
    expect(r.failure?.retryable).toBe(true)
    expect(r.kept).toBe(0)
  }, TIMEOUT_MS)
})
