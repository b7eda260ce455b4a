import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Deferred, Effect, Exit, Fiber, Layer } from "effect"
import { customers, defineResource, EventLog, RepositoryBackend, Transactor } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { afterAll, describe, expect, it } from "vitest"
import { Outbox, type OutboxEntry } from "../src/outbox.ts"
import { PgliteStorage, SqlStorage, type SqlStorageServices } from "../src/sql-storage.ts"
import { DATABASES_AND_CITUS as DATABASES } from "./support/databases.ts"
import { customer, event, ORG, OTHER } from "./support/fixtures.ts"

class Injected {
  readonly _tag = "Injected"
}

const customersOf = Effect.map(RepositoryBackend, (backend) => backend.repository(customers))

describe.each(DATABASES)("SQL storage on $name", (database) => {
  const run = <A, E>(effect: Effect.Effect<A, E, SqlStorageServices | SqlClient.SqlClient>): Promise<A> =>
    Effect.runPromise(Effect.provide(effect, SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)))

  it("a unit of work killed half-way leaves no partial state and loses no committed event", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const repo = yield* customersOf
      const tx = yield* Transactor
      const log = yield* EventLog
      const outbox = yield* Outbox
      const committed = customer(1)
      yield* tx.transaction(Effect.gen(function*() {
        yield* repo.insert(ORG, committed)
        yield* log.append(ORG, [event(1, { customer: committed.id })])
      }))
      // A defect (a crash of the code) between two writes of one unit of work.
      const crashed = yield* Effect.exit(tx.transaction(Effect.gen(function*() {
        yield* repo.insert(ORG, customer(2))
        yield* log.append(ORG, [event(2, { customer: customer(2).id })])
        yield* Effect.die(new Injected())
        yield* repo.update(ORG, { ...committed, email: "changed@example.com" }, 1)
      })))
      expect(Exit.hasDies(crashed)).toBe(true)
      // An interruption (the fiber killed while its transaction is open).
      const halfway = yield* Deferred.make<void>()
      const fiber = yield* Effect.forkChild(tx.transaction(Effect.gen(function*() {
        yield* repo.insert(ORG, customer(3))
        yield* log.append(ORG, [event(3, { customer: customer(3).id })])
        yield* Deferred.succeed(halfway, undefined)
        yield* Effect.never
      })))
      yield* Deferred.await(halfway)
      yield* Fiber.interrupt(fiber)

      const stored = yield* repo.list(ORG, { limit: 50 })
      expect(stored.items.map((c) => c.id)).toEqual([committed.id])
      expect((yield* repo.get(ORG, committed.id)).version).toBe(1)
      const logged = yield* log.list(ORG, { limit: 50 })
      expect(logged.items.map((e) => e.id)).toEqual([event(1).id])
      // The committed event, and only it, is queued for delivery.
      const delivered: Array<OutboxEntry> = []
      yield* outbox.drain(10, (batch) => Effect.sync(() => void delivered.push(...batch)))
      expect(delivered.map((entry) => [entry.organisation, entry.event.id])).toEqual([[ORG, event(1).id]])
      // The store still works after the kills (no lease or transaction left behind).
      yield* repo.insert(ORG, customer(4))
      expect((yield* repo.list(ORG, { limit: 50 })).items).toHaveLength(2)
    })))

  it("one organisation can neither read nor change another's rows, in either table or any resource type", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const backend = yield* RepositoryBackend
      const repo = backend.repository(customers)
      // A second resource type in the shared table, to show that the type is part of every key too.
      const others = backend.repository(defineResource({ ...customers, name: "mandates" }))
      const log = yield* EventLog
      const mine = customer(1)
      yield* repo.insert(ORG, mine)
      yield* log.append(ORG, [event(1, { customer: mine.id })])

      expect(Exit.isFailure(yield* Effect.exit(repo.get(OTHER, mine.id)))).toBe(true)
      expect(Exit.isFailure(yield* Effect.exit(others.get(ORG, mine.id)))).toBe(true)
      expect((yield* repo.list(OTHER, { limit: 50 })).items).toEqual([])
      expect((yield* repo.list(OTHER, { limit: 50, filters: { email: { op: "eq", value: mine.email ?? "" } } })).items).toEqual([])
      expect((yield* others.list(ORG, { limit: 50 })).items).toEqual([])
      expect(yield* repo.scan(OTHER, undefined)).toEqual([])
      const stolen = yield* Effect.exit(repo.update(OTHER, { ...mine, email: "stolen@example.com" }, 1))
      expect(JSON.stringify(stolen)).toContain("NotFound")
      const crossType = yield* Effect.exit(others.update(ORG, { ...mine, email: "stolen@example.com" }, 1))
      expect(JSON.stringify(crossType)).toContain("NotFound")
      expect(Exit.isFailure(yield* Effect.exit(log.get(OTHER, event(1).id)))).toBe(true)
      expect((yield* log.list(OTHER, { limit: 50 })).items).toEqual([])
      expect(yield* log.scan(OTHER, { customer: { op: "eq", value: mine.id } })).toEqual([])
      // Nothing the other organisation tried changed the row.
      const after = yield* repo.get(ORG, mine.id)
      expect(after).toEqual({ resource: mine, version: 1 })
    })))

  it("of two racing updates from one version, exactly one wins and the other is a VersionConflict", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const repo = yield* customersOf
      const tx = yield* Transactor
      const c = customer(1)
      yield* repo.insert(ORG, c)
      // Both read version 1, then both write: the second write must not silently overwrite the first.
      const read = yield* repo.get(ORG, c.id)
      const attempt = (email: string) =>
        Effect.exit(tx.transaction(repo.update(ORG, { ...read.resource, email }, read.version)))
      const outcomes = yield* Effect.all([attempt("a@example.com"), attempt("b@example.com")], { concurrency: 2 })
      expect(outcomes.filter(Exit.isSuccess)).toHaveLength(1)
      const winner = yield* repo.get(ORG, c.id)
      expect(["a@example.com", "b@example.com"]).toContain(winner.resource.email)
      expect(winner.version).toBe(2)
      expect(JSON.stringify(outcomes.find(Exit.isFailure))).toContain("VersionConflict")
    })))

  it("under a transaction its caller opened, a unit of work is a savepoint: a failed one rolls back alone, the caller decides the rest", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const repo = yield* customersOf
      const tx = yield* Transactor
      const sql = yield* SqlClient.SqlClient
      const outcome = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
        yield* tx.transaction(repo.insert(ORG, customer(1)))
        // A nested unit joins its unit: this one fails whole, both inserts rolled back.
        const failed = yield* Effect.exit(tx.transaction(Effect.gen(function*() {
          yield* repo.insert(ORG, customer(2))
          yield* tx.transaction(repo.insert(ORG, customer(3)))
          return yield* Effect.fail(new Injected())
        })))
        expect(Exit.isFailure(failed)).toBe(true)
        expect((yield* repo.list(ORG, { limit: 50 })).items.map((c) => c.id)).toEqual([customer(1).id])
        yield* tx.transaction(repo.insert(ORG, customer(4)))
      })))
      expect(Exit.isSuccess(outcome)).toBe(true)
      expect((yield* repo.list(ORG, { limit: 50 })).items.map((c) => c.id).sort()).toEqual([customer(1).id, customer(4).id].sort())
      // The caller's rollback takes the committed units with it.
      yield* Effect.exit(sql.withTransaction(Effect.flatMap(tx.transaction(repo.insert(ORG, customer(5))), () => Effect.fail(new Injected()))))
      expect((yield* repo.list(ORG, { limit: 50 })).items).toHaveLength(2)
    })))

  it("the outbox hands out committed events in order, keeps them when delivery fails, and drains each once", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const log = yield* EventLog
      const outbox = yield* Outbox
      yield* log.append(ORG, [event(1), event(2)])
      yield* log.append(OTHER, [event(3)])
      expect(yield* outbox.pending).toBe(3)
      const failed = yield* Effect.exit(outbox.drain(10, () => Effect.fail(new Injected())))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* outbox.pending).toBe(3)
      // Two senders side by side: SKIP LOCKED gives them disjoint batches, and every event goes out once.
      const seen: Array<string> = []
      const sender = outbox.drain(2, (batch) =>
        Effect.flatMap(Effect.sleep("5 millis"), () => Effect.sync(() => void seen.push(...batch.map((entry) => entry.event.id)))))
      const counts = yield* Effect.all([sender, sender, sender], { concurrency: "unbounded" })
      expect(counts.reduce((a, b) => a + b, 0)).toBe(3)
      expect([...seen].sort()).toEqual([event(1).id, event(2).id, event(3).id].sort())
      expect(yield* outbox.pending).toBe(0)
      expect(yield* outbox.drain(10, () => Effect.void)).toBe(0)
    })))

  it("the database refuses to change or delete an event", { timeout: 60_000 }, () =>
    run(Effect.gen(function*() {
      const log = yield* EventLog
      const sql = yield* SqlClient.SqlClient
      yield* log.append(ORG, [event(1)])
      const refusal = (error: SqlError) => [error.reason._tag, `${error.message} ${String(error.reason.cause)}`]
      const update = yield* Effect.flip(sql`UPDATE events SET version = 2`)
      expect(refusal(update)[0]).toBe("ConstraintError")
      expect(refusal(update)[1]).toContain("append-only")
      const remove = yield* Effect.flip(sql`DELETE FROM events`)
      expect(refusal(remove)[0]).toBe("ConstraintError")
      expect(refusal(remove)[1]).toContain("append-only")
      expect((yield* log.list(ORG, { limit: 10 })).items).toHaveLength(1)
    })))
})

describe("PGlite storage on a data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "paykit-store-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("a restart on the same data directory finds everything written", { timeout: 120_000 }, async () => {
    const session = <A>(effect: Effect.Effect<A, unknown, SqlStorageServices>) =>
      Effect.runPromise(Effect.provide(effect, Layer.fresh(PgliteStorage({ dataDir: dir }))))
    const written = await session(Effect.gen(function*() {
      const repo = yield* customersOf
      const tx = yield* Transactor
      const log = yield* EventLog
      const all = [customer(1), customer(2), customer(3)]
      for (const c of all) {
        yield* tx.transaction(Effect.gen(function*() {
          yield* repo.insert(ORG, c)
          yield* log.append(ORG, [event(Number(all.indexOf(c)) + 1, { customer: c.id })])
        }))
      }
      yield* repo.update(ORG, { ...customer(2), email: "updated@example.com" }, 1)
      return { customers: yield* repo.scan(ORG, undefined), events: yield* log.scan(ORG, undefined) }
    }))
    const reread = await session(Effect.gen(function*() {
      const repo = yield* customersOf
      const log = yield* EventLog
      const outbox = yield* Outbox
      return {
        customers: yield* repo.scan(ORG, undefined),
        events: yield* log.scan(ORG, undefined),
        pending: yield* outbox.pending
      }
    }))
    expect(reread.customers).toEqual(written.customers)
    expect(reread.customers.map((v) => v.version)).toEqual([1, 2, 1])
    expect(reread.events).toEqual(written.events)
    expect(reread.events).toHaveLength(3)
    expect(reread.pending).toBe(3)
  })
})
