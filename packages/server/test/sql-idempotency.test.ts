import { OrganisationId } from "@paykit/core"
import { Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { Transactor } from "@paykit/engine"
import { IDEMPOTENCY_KEY_LIFETIME_MS, IdempotencyStore } from "@paykit/http"
import { SqlStorage } from "@paykit/store-sql"
import { DATABASES } from "../../store-sql/test/support/databases.ts"
import { migrateServer, SqlIdempotencyStore } from "../src/index.ts"

/**
 * The SQL idempotency store on each database: a keyed creation's rows and its key commit together,
 * a reuse conflicts naming the resource, a failure frees the key and keeps what committed.
 */

const ORG = OrganisationId("OR0000000000TE")
const OTHER = "OR0000000000TH"

class Refused {
  readonly _tag = "Refused"
}

/** The "resource" a creation makes: a row of a table of its own, so the test counts them. */
const made = (id: string) => Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.as(Effect.orDie(sql`INSERT INTO made (id) VALUES (${id})`), id))
const madeIds = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(Effect.orDie(sql<{ id: string }>`SELECT id FROM made ORDER BY id`), (rows) => rows.map((row) => row.id)))
const keep = (id: string): string | undefined => id

describe.each(DATABASES)("SqlIdempotencyStore on $name", (database) => {
  const run = <A, E>(effect: Effect.Effect<A, E, IdempotencyStore | SqlClient.SqlClient | Transactor>): Promise<A> =>
    Effect.runPromise(Effect.provide(
      Effect.andThen(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.orDie(sql`CREATE TABLE made (id text PRIMARY KEY)`)), effect),
      SqlIdempotencyStore.pipe(
        Layer.provideMerge(Layer.effectDiscard(Effect.orDie(migrateServer))),
        Layer.provideMerge(SqlStorage),
        Layer.provideMerge(database.isolated()),
        Layer.orDie
      )
    ))

  it("of concurrent requests with one key one creates; the others wait, then conflict naming its resource", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const attempt = (n: number) => store.once(ORG, "concurrent", Effect.andThen(Effect.sleep("5 millis"), made(`R${n}`)), keep)
      const outcomes = yield* Effect.all(Array.from({ length: 6 }, (_, n) => attempt(n)), { concurrency: "unbounded" })
      const created = outcomes.flatMap((o) => o._tag === "Created" ? [o.value] : [])
      expect(created).toHaveLength(1)
      expect(outcomes.filter((o) => o._tag === "Conflict")).toEqual(Array.from({ length: 5 }, () => ({ _tag: "Conflict", resourceId: created[0] })))
      expect(yield* madeIds).toEqual(created)
    })))

  it("requests waiting on a key whose creation fails get it in turn: one creates, the rest conflict", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const failing = store.once(ORG, "fails-first", Effect.andThen(Effect.sleep("50 millis"), Effect.fail(new Refused())), keep)
      const waiting = (n: number) => Effect.andThen(Effect.sleep("20 millis"), store.once(ORG, "fails-first", made(`W${n}`), keep))
      const [first, ...rest] = yield* Effect.all([Effect.exit(failing), ...Array.from({ length: 4 }, (_, n) => Effect.exit(waiting(n)))], { concurrency: "unbounded" })
      expect(first !== undefined && Exit.isFailure(first)).toBe(true)
      const outcomes = rest.flatMap((exit) => Exit.isSuccess(exit) ? [exit.value] : [])
      const created = outcomes.flatMap((o) => o._tag === "Created" ? [o.value] : [])
      expect(created).toHaveLength(1)
      expect(outcomes.filter((o) => o._tag === "Conflict")).toEqual(Array.from({ length: 3 }, () => ({ _tag: "Conflict", resourceId: created[0] })))
      expect(yield* madeIds).toEqual(created)
    })))

  it("any reuse of a key conflicts, in its organisation only", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      expect(yield* store.once(ORG, "k", made("R1"), keep)).toEqual({ _tag: "Created", value: "R1" })
      expect(yield* store.once(ORG, "k", made("R2"), keep)).toEqual({ _tag: "Conflict", resourceId: "R1" })
      expect(yield* store.once(OTHER, "k", made("R3"), keep)).toEqual({ _tag: "Created", value: "R3" })
      expect(yield* madeIds).toEqual(["R1", "R3"])
    })))

  it("a failed creation frees its key and keeps the units of work it committed; a defect keeps nothing", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const tx = yield* Transactor
      const failing = Effect.andThen(tx.transaction(made("KEPT")), tx.transaction(Effect.andThen(made("UNDONE"), Effect.fail(new Refused()))))
      const failed = yield* Effect.exit(store.once(ORG, "f", failing, keep))
      expect(Exit.isFailure(failed) && JSON.stringify(failed.cause).includes("Refused")).toBe(true)
      expect(yield* madeIds).toEqual(["KEPT"])
      // A success that names no resource frees the key too.
      expect(yield* store.once(ORG, "f", made("NAMELESS"), () => undefined)).toEqual({ _tag: "Created", value: "NAMELESS" })
      const dying = Effect.andThen(tx.transaction(made("LOST")), Effect.die(new Error("injected")))
      expect(Exit.isFailure(yield* Effect.exit(store.once(ORG, "f", dying, keep)))).toBe(true)
      expect(yield* madeIds).toEqual(["KEPT", "NAMELESS"])
      expect(yield* store.once(ORG, "f", made("R1"), keep)).toEqual({ _tag: "Created", value: "R1" })
    })))

  it("a key is kept for its lifetime, then creates afresh", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const sql = yield* SqlClient.SqlClient
      yield* store.once(ORG, "old", made("R1"), keep)
      const age = (ms: number) => sql`UPDATE idempotency_keys SET created_at = now() - make_interval(secs => ${ms / 1000}) WHERE key = 'old'`
      yield* age(IDEMPOTENCY_KEY_LIFETIME_MS - 60_000)
      expect(yield* store.once(ORG, "old", made("R2"), keep)).toEqual({ _tag: "Conflict", resourceId: "R1" })
      yield* age(IDEMPOTENCY_KEY_LIFETIME_MS + 1_000)
      expect(yield* store.once(ORG, "old", made("R3"), keep)).toEqual({ _tag: "Created", value: "R3" })
      expect(yield* store.once(ORG, "old", made("R4"), keep)).toEqual({ _tag: "Conflict", resourceId: "R3" })
    })))
})
