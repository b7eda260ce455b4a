import { Clock, Context, Effect, Fiber, Layer, type Scope } from "effect"
import * as fc from "fast-check"
import { MILLIS_PER_DAY } from "@paykit/core"
import { type DueItem, dueDone, DueWorker, type DueWorkDeclarations, DueWorkStore, InMemoryStorage, Transactor } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The due-work claim on SQL: several workers claiming at once each run every due row exactly once;
 * a sandbox advance runs one organisation's rows in due order and leaves the others' alone; a row
 * leased by a worker that died is run by another once the lease ran out.
 */

const KIND = "probe"
const ORGANISATIONS = ["OR0000000000A1", "OR0000000000B1", "OR0000000000C1"] as const

interface Ran {
  readonly organisation: string
  readonly key: string
  readonly dueAt: number
  readonly owner: string
  /** The handler's clock when it ran. */
  readonly at: number
}

const recording = (ran: Array<Ran>, owner: string): DueWorkDeclarations => ({
  pumps: [],
  kinds: [{
    kind: KIND,
    run: (item: DueItem) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        ran.push({ organisation: item.organisation, key: item.key, dueAt: item.dueAt, owner, at })
        // Gives the other workers a chance to claim in between.
        yield* Effect.yieldNow
        return dueDone
      })
  }]
})

type Storage = Context.Context<DueWorkStore | Transactor>

/** One worker over `declarations` on the test's schema, built in the test's scope. */
const workerOn = (storage: Storage, declarations: DueWorkDeclarations, owner: string, leaseMillis?: number) =>
  Effect.map(
    Layer.build(DueWorker.layer([declarations], { owner, ...(leaseMillis === undefined ? {} : { leaseMillis }) }).pipe(
      Layer.provide(Layer.succeedContext(storage))
    )),
    (context) => Context.get(context, DueWorker)
  )

/** `workers` workers on one fresh schema, built in the test's scope. */
const workersOn = (storage: Storage, ran: Array<Ran>, count: number, leaseMillis?: number) =>
  Effect.forEach(Array.from({ length: count }, (_, i) => `worker-${i}`), (owner) => workerOn(storage, recording(ran, owner), owner, leaseMillis))

const Rows = fc.uniqueArray(
  fc.record({ organisation: fc.constantFrom(...ORGANISATIONS), key: fc.string({ minLength: 1, maxLength: 6 }), due: fc.integer({ min: 0, max: 5_000 }) }),
  { minLength: 1, maxLength: 30, selector: (row) => `${row.organisation}/${row.key}` }
)

/**
 * Rows of several organisations, kinds and keys due at a few instants, many at one: the ties the
 * stores must break alike. Upper and lower case tell code point order from a locale's.
 */
const TiedRows = fc.uniqueArray(
  fc.record({
    organisation: fc.constantFrom("OR0000000000A1", "OR0000000000B2", "OR0000000000C1", "OR0000000000Z2"),
    kind: fc.constantFrom("probe", "daily_run", "Alpha"),
    key: fc.string({ minLength: 1, maxLength: 3 }),
    due: fc.integer({ min: 0, max: 3 })
  }),
  { minLength: 1, maxLength: 25, selector: (row) => `${row.organisation}/${row.kind}/${row.key}` }
)

/** The order `store` hands out the rows due by `upTo`: a poll's claim, then an advance's claims one by one (each completed). */
const claimOrder = (store: DueWorkStore["Service"], upTo: number) =>
  Effect.gen(function*() {
    const name = (item: DueItem) => `${item.organisation}/${item.kind}/${item.key}@${item.dueAt}`
    const polled = (yield* store.claimDue({ owner: "poll", realNow: upTo, until: upTo + 1 }, 1_000)).map(name)
    const advanced: Array<string> = []
    // Past the poll's lease, so the advance claims every row again.
    const lease = { owner: "advance", realNow: upTo + 2, until: upTo + 3 }
    while (true) {
      const next = yield* store.claimNextOf(undefined, upTo, lease)
      if (next._tag !== "Claimed") return { polled, advanced, last: next._tag }
      advanced.push(name(next.item))
      yield* store.complete(next.item, lease.owner, dueDone)
    }
  })

describe.each(DATABASES)("due work on $name", (database) => {
  const withStorage = <A>(f: (storage: Storage) => Effect.Effect<A, unknown, Scope.Scope>) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const storage = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated()))))
      return yield* f(storage)
    })))

  it("4 concurrent workers run each due row exactly once, and none not yet due", { timeout: 120_000 }, () =>
    fc.assert(fc.asyncProperty(Rows, (rows) =>
      withStorage((storage) =>
        Effect.gen(function*() {
          const store = Context.get(storage, DueWorkStore)
          const now = yield* Clock.currentTimeMillis
          for (const row of rows) yield* store.schedule({ organisation: row.organisation, kind: KIND, key: row.key, dueAt: now - row.due })
          // Rows due an hour from now stay.
          yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "later", dueAt: now + 3_600_000 })
          const ran: Array<Ran> = []
          const workers = yield* workersOn(storage, ran, 4)
          yield* Effect.forEach(workers, (worker) => worker.runDue, { concurrency: "unbounded" })
          const done = ran.map((r) => `${r.organisation}/${r.key}`).sort()
          expect(done).toEqual(rows.map((row) => `${row.organisation}/${row.key}`).sort())
          expect((yield* store.pendingOf("OR0000000000A1", KIND)).map((item) => item.key)).toEqual(["later"])
          // Each ran at or after its instant.
          for (const r of ran) expect(r.at).toBeGreaterThanOrEqual(r.dueAt)
        })
      )), { numRuns: 8 }))

  it("one worker runs the rows in due order", { timeout: 60_000 }, () =>
    fc.assert(fc.asyncProperty(Rows, (rows) =>
      withStorage((storage) =>
        Effect.gen(function*() {
          const store = Context.get(storage, DueWorkStore)
          const now = yield* Clock.currentTimeMillis
          for (const row of rows) yield* store.schedule({ organisation: row.organisation, kind: KIND, key: row.key, dueAt: now - row.due })
          const ran: Array<Ran> = []
          const [worker] = yield* workersOn(storage, ran, 1)
          if (worker === undefined) return
          yield* worker.runDue
          const dueAts = ran.map((r) => r.dueAt)
          expect(dueAts).toEqual([...dueAts].sort((a, b) => a - b))
          expect(ran).toHaveLength(rows.length)
        })
      )), { numRuns: 5 }))

  it("an advance runs only its organisation's rows, in due order, each at its instant, then leaves its clock at the target", { timeout: 60_000 }, () =>
    fc.assert(fc.asyncProperty(Rows, fc.integer({ min: 1, max: 10 }), (rows, days) =>
      withStorage((storage) =>
        Effect.gen(function*() {
          const store = Context.get(storage, DueWorkStore)
          const now = yield* Clock.currentTimeMillis
          const DAY = 86_400_000
          // Due in the future: only an advance reaches them.
          for (const row of rows) {
            yield* store.schedule({ organisation: row.organisation, kind: KIND, key: row.key, dueAt: now + (row.due + 1) * 60_000 })
          }
          const ran: Array<Ran> = []
          const [worker] = yield* workersOn(storage, ran, 1)
          if (worker === undefined) return
          const target = now + days * DAY
          yield* worker.advance("OR0000000000A1", target)
          const expected = rows.filter((row) => row.organisation === "OR0000000000A1" && now + (row.due + 1) * 60_000 <= target)
          expect(ran.map((r) => r.key).sort()).toEqual(expected.map((row) => row.key).sort())
          expect(ran.every((r) => r.organisation === "OR0000000000A1")).toBe(true)
          const dueAts = ran.map((r) => r.dueAt)
          expect(dueAts).toEqual([...dueAts].sort((a, b) => a - b))
          // Each ran at its own instant (the handler's clock), not at the target.
          for (const r of ran) expect(r.at - r.dueAt).toBeLessThan(5_000)
          expect(yield* worker.nowOf("OR0000000000A1")).toBeGreaterThanOrEqual(target)
          expect(yield* store.offsetOf("OR0000000000B1")).toBe(0)
          // The other organisations' rows are still there, and not yet due on their clocks.
          expect(yield* worker.runDue).toBe(0)
        })
      )), { numRuns: 5 }))

  it("a row leased by a worker that died is run by another once the lease ran out", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        const now = yield* Clock.currentTimeMillis
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "k", dueAt: now - 1 })
        // The dead worker: it claimed, then never completed.
        const claimed = yield* store.claimDue({ owner: "dead", realNow: now, until: now + 300 }, 10)
        expect(claimed.map((item) => item.key)).toEqual(["k"])
        const ran: Array<Ran> = []
        const [worker] = yield* workersOn(storage, ran, 1)
        if (worker === undefined) return
        expect(yield* worker.runDue).toBe(0)
        yield* Effect.sleep(400)
        expect(yield* worker.runDue).toBe(1)
        expect(ran.map((r) => r.owner)).toEqual(["worker-0"])
        expect(yield* store.pendingOf("OR0000000000A1", KIND)).toEqual([])
      })
    ))

  it("a row whose handler failed is retried after a backoff (attempt + 1, lease freed), so an advance runs it without waiting out the lease", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        const now = yield* Clock.currentTimeMillis
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "flaky", dueAt: now - 1 })
        let runs = 0
        const flaky: DueWorkDeclarations = {
          pumps: [],
          kinds: [{ kind: KIND, run: () => Effect.suspend(() => ++runs === 1 ? Effect.die(new Error("first run fails")) : Effect.succeed(dueDone)) }]
        }
        const worker = yield* workerOn(storage, flaky, "worker-0")
        expect(yield* worker.runDue).toBe(1)
        const [kept] = yield* store.pendingOf("OR0000000000A1", KIND)
        expect(kept?.attempt).toBe(1)
        expect(kept?.dueAt).toBeGreaterThan(now)
        // The lease is free: an advance past the retry runs the row now, not after the 5-minute lease.
        yield* worker.advance("OR0000000000A1", now + MILLIS_PER_DAY)
        expect(runs).toBe(2)
        expect(yield* store.pendingOf("OR0000000000A1", KIND)).toEqual([])
      })
    ))

  it("an item running longer than its lease keeps it: a second worker polling meanwhile does not run it again", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        const now = yield* Clock.currentTimeMillis
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "long", dueAt: now - 1 })
        const runs: Array<string> = []
        const slow = (owner: string): DueWorkDeclarations => ({
          pumps: [],
          kinds: [{ kind: KIND, run: () => Effect.andThen(Effect.sync(() => runs.push(owner)), Effect.as(Effect.sleep(1_500), dueDone)) }]
        })
        const first = yield* workerOn(storage, slow("worker-0"), "worker-0", 300)
        const second = yield* workerOn(storage, slow("worker-1"), "worker-1", 300)
        const running = yield* Effect.forkChild(first.runDue)
        // Past the 300 ms lease several times over while the first still runs the item. (On PGlite
        // the first's open unit of work holds the one connection, so the second waits anyway; on
        // PostgreSQL only the renewed lease keeps the second from running it again.)
        for (let i = 0; i < 4; i++) {
          yield* Effect.sleep(300)
          yield* second.runDue
        }
        yield* Fiber.join(running)
        expect(runs).toEqual(["worker-0"])
        expect(yield* store.pendingOf("OR0000000000A1", KIND)).toEqual([])
      })
    ))

  it("a process's worker polling while its advance runs the same organisation's rows runs each row once", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        const now = yield* Clock.currentTimeMillis
        const keys = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, "0")}`)
        for (const [i, key] of keys.entries()) yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key, dueAt: now - 1_000 + i })
        const ran: Array<string> = []
        // A handler that takes a while, so the worker still holds its row when the advance asks for it.
        const slow: DueWorkDeclarations = {
          pumps: [],
          kinds: [{ kind: KIND, run: (item) => Effect.as(Effect.andThen(Effect.sync(() => void ran.push(item.key)), Effect.sleep(15)), dueDone) }]
        }
        const worker = Context.get(
          yield* Layer.build(DueWorker.layer([slow], { owner: "one-process" }).pipe(Layer.provide(Layer.succeedContext(storage)))),
          DueWorker
        )
        yield* Effect.all([worker.runDue, worker.advance("OR0000000000A1", now)], { concurrency: "unbounded" })
        expect([...ran].sort()).toEqual(keys)
        expect(yield* store.pendingOf("OR0000000000A1", KIND)).toEqual([])
      })
    ))

  it("hands out rows due at one instant in the same order as the in-memory store: due order, organisation first", { timeout: 120_000 }, () =>
    fc.assert(fc.asyncProperty(TiedRows, (rows) =>
      withStorage((storage) =>
        Effect.gen(function*() {
          const memory = Context.get(yield* Layer.build(InMemoryStorage), DueWorkStore)
          const sql = Context.get(storage, DueWorkStore)
          for (const store of [sql, memory]) {
            for (const row of rows) yield* store.schedule({ organisation: row.organisation, kind: row.kind, key: row.key, dueAt: 1_000 + row.due })
          }
          const onSql = yield* claimOrder(sql, 1_003)
          expect(yield* claimOrder(memory, 1_003)).toEqual(onSql)
          expect(onSql.advanced).toEqual(onSql.polled)
          expect(onSql.advanced).toHaveLength(rows.length)
        })
      )), { numRuns: 10 }))

  it("the library's advance passes over a failed row, runs the others due at its instant, and leaves it as it was", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        const now = yield* Clock.currentTimeMillis
        const at = now + 60_000
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "broken", dueAt: at })
        yield* store.schedule({ organisation: "OR0000000000B1", kind: KIND, key: "fine", dueAt: at })
        yield* store.schedule({ organisation: "OR0000000000B1", kind: KIND, key: "later", dueAt: at + 60_000 })
        const ran: Array<string> = []
        const breaking: DueWorkDeclarations = {
          pumps: [],
          kinds: [{
            kind: KIND,
            run: (item) => Effect.suspend(() => {
              ran.push(item.key)
              return item.key === "broken" ? Effect.die(new Error("broke")) : Effect.succeed(dueDone)
            })
          }]
        }
        const worker = yield* workerOn(storage, breaking, "library")
        const moved: Array<number> = []
        const exit = yield* Effect.exit(worker.advanceAll(at + 120_000, (instant) => Effect.sync(() => void moved.push(instant))))
        expect(exit._tag).toBe("Failure")
        expect(ran).toEqual(["broken", "fine"])
        expect(moved.every((instant) => instant < at + 60_000)).toBe(true)
        expect(yield* store.pendingOf("OR0000000000A1", KIND)).toEqual([{ organisation: "OR0000000000A1", kind: KIND, key: "broken", dueAt: at, attempt: 0 }])
        const claimed = yield* store.claimNextOf("OR0000000000A1", at, { owner: "check", realNow: yield* Clock.currentTimeMillis, until: now + 120_000 })
        expect(claimed._tag).toBe("Claimed")
      })
    ))

  it("scheduling a pending key again keeps one row, due at the earlier instant", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "k", dueAt: 2_000 })
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "k", dueAt: 1_000 })
        yield* store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "k", dueAt: 3_000 })
        expect((yield* store.pendingOf("OR0000000000A1", KIND)).map((item) => item.dueAt)).toEqual([1_000])
      })
    ))

  it("a schedule inside a unit of work that fails is rolled back with it", { timeout: 60_000 }, () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        const store = Context.get(storage, DueWorkStore)
        const transactor = Context.get(storage, Transactor)
        yield* Effect.exit(transactor.transaction(Effect.andThen(store.schedule({ organisation: "OR0000000000A1", kind: KIND, key: "k", dueAt: 1 }), Effect.fail("no"))))
        expect(yield* store.pendingOf("OR0000000000A1", KIND)).toEqual([])
      })
    ))
})
