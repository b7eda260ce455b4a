import { PGlite } from "@electric-sql/pglite"
import { Cause, Effect, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { ID_PREFIXES, IdGenerator, lowestIdAt, timestampFromMillis, OrganisationId } from "@paykit/core"
import { captureDailyItems, customers, type Event, EventLog, HoldWrites, RepositoryBackend, Transactor } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import * as PgliteClient from "../src/pglite-client.ts"
import { SqlStorage } from "../src/sql-storage.ts"

/**
 * The SQL unit of work: a row read or written in a unit is answered again without a
 * statement, and the events and history it appends are written in one multi-row statement when it
 * ends, or before something in it reads them; a unit that fails writes none of them. The statements
 * PGlite receives are recorded.
 */

const ORG = OrganisationId("OR0000000000VW")
const BASE_MS = Date.UTC(2026, 10, 27, 9)

const eventOf = (n: number): Event => ({
  id: lowestIdAt(ID_PREFIXES.event, BASE_MS + n * 1000),
  created_at: timestampFromMillis(BASE_MS + n * 1000),
  resource_type: "customers",
  action: "created",
  links: { customer: sampleCustomer(n).id },
  details: { origin: "api", cause: "created", description: "customer created" },
  metadata: {},
  resource_metadata: {}
})

/** Runs `effect` on SQL storage over an in-memory PGlite whose statements are pushed to `sent`. */
const onRecordedPglite = <A, E>(
  sent: Array<string>,
  effect: Effect.Effect<A, E, EventLog | Transactor | RepositoryBackend> | ((db: PGlite) => Effect.Effect<A, E, EventLog | Transactor | RepositoryBackend>)
) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(Effect.promise(() => PGlite.create()), (opened) => Effect.promise(() => opened.close()))
    const query = db.query.bind(db)
    db.query = ((...args: Parameters<typeof query>) => {
      sent.push(args[0].replace(/\s+/g, " "))
      return query(...args)
    }) as typeof db.query
    // Unnamed statements go through `query`, where they are counted; named ones would not.
    const storage = SqlStorage.pipe(Layer.provide(PgliteClient.layer({ instance: db, preparedStatements: 0 })), Layer.orDie)
    return yield* Effect.provide(typeof effect === "function" ? effect(db) : effect, storage)
  })))

/** A statement reading rows of `resources`: by id, or many by id (a lateral lookup of each). */
const readsResources = (text: string) => text.startsWith("SELECT version, data FROM \"resources\"") || (text.startsWith("SELECT r.version, r.data FROM (VALUES") && text.includes("FROM \"resources\""))

const inserts = (sent: ReadonlyArray<string>, table: string) => sent.filter((text) => text.startsWith(`INSERT INTO "${table}"`))

describe("the SQL unit of work", () => {
  it("answers a daily batch's reads by id from what it read ahead, in one statement; without it, one a row", async () => {
    const items = Array.from({ length: 50 }, (_, i) => i + 1)
    // Each item reads a row of its own, as a charge reads its mandate.
    const relatedOf = (n: number) => sampleCustomer(100 + n).id
    const readsOfBatch = (ahead: boolean) => {
      const sent: Array<string> = []
      return onRecordedPglite(sent, Effect.gen(function*() {
        const repository = (yield* RepositoryBackend).repository(customers)
        yield* repository.insertAll(ORG, items.map((n) => sampleCustomer(100 + n)))
        const eachItem = yield* captureDailyItems
        const from = sent.length
        const read: Array<string> = []
        yield* eachItem("read ahead", ORG, items, String, (n) => Effect.map(repository.get(ORG, relatedOf(n)), (row) => read.push(row.resource.id)),
          ahead ? (batch) => repository.getMany(ORG, batch.map(relatedOf)) : undefined)
        expect(read).toEqual(items.map(relatedOf))
        return sent.slice(from).filter(readsResources).length
      }).pipe(Effect.provide(IdGenerator.layerSeeded(3))))
    }
    expect(await readsOfBatch(true)).toBe(1)
    expect(await readsOfBatch(false)).toBe(items.length)
  })

  it("reads a row once per unit, and answers its own writes", async () => {
    const sent: Array<string> = []
    const reads = await onRecordedPglite(sent, Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const tx = yield* Transactor
      yield* repository.insert(ORG, sampleCustomer(1))
      const from = sent.length
      const [first, second, third] = yield* tx.transaction(Effect.gen(function*() {
        const first = yield* repository.get(ORG, sampleCustomer(1).id)
        const second = yield* repository.get(ORG, sampleCustomer(1).id)
        const updated = yield* Effect.orDie(repository.update(ORG, { ...first.resource, email: "new@example.com" }, first.version))
        return [first, second, { updated, read: yield* repository.get(ORG, sampleCustomer(1).id) }] as const
      }))
      expect(second).toBe(first)
      expect(third.read).toEqual(third.updated)
      expect(third.read.version).toBe(2)
      // Outside a unit, every read is a statement.
      const outside = yield* repository.get(ORG, sampleCustomer(1).id)
      expect(outside.resource.email).toBe("new@example.com")
      return sent.slice(from).filter(readsResources)
    }))
    expect(reads).toHaveLength(2)
  })

  it("writes a further update of a row it wrote when it ends, or before a scan; a stale one is a conflict", async () => {
    const sent: Array<string> = []
    await onRecordedPglite(sent, Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const tx = yield* Transactor
      yield* repository.insert(ORG, sampleCustomer(1))
      // Counted from here: the migrations update rows too.
      const from = sent.length
      const updates = () => sent.slice(from).filter((text) => text.startsWith("UPDATE")).length
      yield* tx.transaction(Effect.gen(function*() {
        const read = yield* repository.get(ORG, sampleCustomer(1).id)
        const once = yield* Effect.orDie(repository.update(ORG, { ...read.resource, email: "one@example.com" }, read.version))
        const twice = yield* Effect.orDie(repository.update(ORG, { ...once.resource, email: "two@example.com" }, once.version))
        const thrice = yield* Effect.orDie(repository.update(ORG, { ...twice.resource, email: "three@example.com" }, twice.version))
        expect(thrice.version).toBe(4)
        expect(updates()).toBe(1)
        const stale = yield* Effect.flip(repository.update(ORG, { ...once.resource, email: "stale@example.com" }, once.version))
        expect(stale._tag).toBe("VersionConflict")
        // A scan reads the table: the held update is written first.
        const scanned = yield* repository.scan(ORG, undefined)
        expect(scanned.map((row) => [row.resource.email, row.version])).toEqual([["three@example.com", 4]])
        expect(updates()).toBe(2)
        const last = yield* Effect.orDie(repository.update(ORG, { ...thrice.resource, email: "four@example.com" }, thrice.version))
        expect(last.version).toBe(5)
      }))
      expect(updates()).toBe(3)
      const stored = yield* repository.get(ORG, sampleCustomer(1).id)
      expect([stored.resource.email, stored.version]).toEqual(["four@example.com", 5])
    }))
  })

  it("appends events in one statement when the unit ends, and before a read of them", async () => {
    const sent: Array<string> = []
    await onRecordedPglite(sent, Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      yield* tx.transaction(Effect.gen(function*() {
        for (const n of [1, 2, 3]) yield* log.append(ORG, [eventOf(n)])
        expect(inserts(sent, "events")).toHaveLength(0)
      }))
      expect(inserts(sent, "events")).toHaveLength(1)
      expect((yield* log.scan(ORG, undefined)).map((e) => e.id)).toEqual([1, 2, 3].map((n) => eventOf(n).id))
      yield* tx.transaction(Effect.gen(function*() {
        yield* log.append(ORG, [eventOf(4)])
        // A read of the events in the unit sees the unit's own.
        expect((yield* log.get(ORG, eventOf(4).id)).id).toBe(eventOf(4).id)
        yield* log.append(ORG, [eventOf(5)])
      }))
      expect(inserts(sent, "events")).toHaveLength(3)
      expect(yield* log.scan(ORG, undefined)).toHaveLength(5)
    }))
  })

  it("writes nothing a failed unit appended", async () => {
    const sent: Array<string> = []
    await onRecordedPglite(sent, Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      const failed = yield* Effect.exit(tx.transaction(Effect.andThen(log.append(ORG, [eventOf(1)]), Effect.fail("refused"))))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(inserts(sent, "events")).toHaveLength(0)
      expect(yield* log.scan(ORG, undefined)).toHaveLength(0)
    }))
  })

  it("holding its writes (a daily batch), writes its inserts and first updates in one statement each when it ends", async () => {
    const sent: Array<string> = []
    await onRecordedPglite(sent, Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const tx = yield* Transactor
      for (const n of [1, 2, 3]) yield* repository.insert(ORG, sampleCustomer(n))
      const from = sent.length
      const writes = () => sent.slice(from).filter((text) => text.startsWith("UPDATE") || text.startsWith("INSERT")).length
      yield* Effect.provideService(tx.transaction(Effect.gen(function*() {
        for (const n of [1, 2, 3]) {
          const read = yield* repository.get(ORG, sampleCustomer(n).id)
          const once = yield* Effect.orDie(repository.update(ORG, { ...read.resource, email: `one${n}@example.com` }, read.version))
          yield* Effect.orDie(repository.update(ORG, { ...once.resource, email: `two${n}@example.com` }, once.version))
        }
        for (const n of [4, 5]) yield* Effect.orDie(repository.insert(ORG, sampleCustomer(n)))
        const inserted = yield* Effect.orDie(repository.get(ORG, sampleCustomer(4).id))
        yield* Effect.orDie(repository.update(ORG, { ...inserted.resource, email: "four@example.com" }, inserted.version))
        // An id the unit knows is taken at once.
        expect((yield* Effect.flip(repository.insert(ORG, sampleCustomer(5))))._tag).toBe("DuplicateId")
        expect(writes()).toBe(0)
      })), HoldWrites, true)
      expect(writes()).toBe(2)
      const stored = yield* repository.scan(ORG, undefined)
      expect(stored.map((row) => [row.resource.email, row.version])).toEqual([
        ["two1@example.com", 3], ["two2@example.com", 3], ["two3@example.com", 3], ["four@example.com", 2], [sampleCustomer(5).email, 1]
      ])
    }))
  })

  it("holding its writes, fails as a whole (a defect) when a held row was changed or its id taken meanwhile", async () => {
    const sent: Array<string> = []
    await onRecordedPglite(sent, (db) => Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const tx = yield* Transactor
      yield* repository.insert(ORG, sampleCustomer(1))
      const held = <A, E>(effect: Effect.Effect<A, E>) => Effect.exit(Effect.provideService(tx.transaction(effect), HoldWrites, true))
      // Another writer, by hand on the unit's own connection (PGlite has one): what another
      // transaction committed between the unit's read and its end.
      const behindTheUnit = (statement: string, params: ReadonlyArray<unknown>) => Effect.promise(() => db.query(statement, [...params]))
      const lost = yield* held(Effect.gen(function*() {
        const read = yield* repository.get(ORG, sampleCustomer(1).id)
        yield* Effect.orDie(repository.insert(ORG, sampleCustomer(2)))
        yield* Effect.orDie(repository.update(ORG, { ...read.resource, email: "held@example.com" }, read.version))
        yield* behindTheUnit(`UPDATE resources SET version = version + 1 WHERE organisation_id = $1 AND id = $2`, [ORG, sampleCustomer(1).id])
      }))
      expect(Exit.isFailure(lost) && Cause.hasDies(lost.cause)).toBe(true)
      const taken = yield* held(Effect.gen(function*() {
        yield* Effect.orDie(repository.insert(ORG, sampleCustomer(3)))
        yield* Effect.orDie(repository.insertAll(ORG, [sampleCustomer(3)]))
      }))
      expect(Exit.isFailure(taken) && Cause.hasDies(taken.cause)).toBe(true)
      // Both units rolled back whole.
      const stored = yield* repository.scan(ORG, undefined)
      expect(stored.map((row) => [row.resource.id, row.resource.email, row.version])).toEqual([[sampleCustomer(1).id, sampleCustomer(1).email, 1]])
    }))
  })

  it("reads many rows by id in one statement, and answers them and the absent ones again without one", async () => {
    const sent: Array<string> = []
    await onRecordedPglite(sent, Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const tx = yield* Transactor
      for (const n of [1, 2]) yield* repository.insert(ORG, sampleCustomer(n))
      const from = sent.length
      const reads = () => sent.slice(from).filter(readsResources).length
      yield* tx.transaction(Effect.gen(function*() {
        const many = yield* repository.getMany(ORG, [1, 2, 3].map((n) => sampleCustomer(n).id))
        expect(many.map((row) => row.resource.id).sort()).toEqual([1, 2].map((n) => sampleCustomer(n).id).sort())
        expect(reads()).toBe(1)
        expect((yield* repository.get(ORG, sampleCustomer(2).id)).resource.id).toBe(sampleCustomer(2).id)
        expect((yield* Effect.flip(repository.get(ORG, sampleCustomer(3).id)))._tag).toBe("NotFound")
        // Read again, the rows known are not asked for; one inserted since is found.
        yield* Effect.orDie(repository.insert(ORG, sampleCustomer(3)))
        expect(yield* repository.getMany(ORG, [1, 2, 3].map((n) => sampleCustomer(n).id))).toHaveLength(3)
        expect((yield* repository.get(ORG, sampleCustomer(3).id)).version).toBe(1)
        expect(reads()).toBe(1)
      }))
      // Outside a unit, every read is a statement.
      expect(yield* repository.getMany(ORG, [sampleCustomer(1).id])).toHaveLength(1)
      expect(reads()).toBe(2)
    }))
  })
})
