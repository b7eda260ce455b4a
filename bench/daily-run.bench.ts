/**
 * The daily run at scale (issue 17): one organisation's daily run with N subscriptions of which
 * about 1/30 fall due, on top of H payments paid out long ago, against a run with the same number
 * due on a small store (max(1k, due) subscriptions, no history). The jobs read only what is due,
 * so the ratio should stay within 2x as N and H grow.
 *
 *   npm run bench -- daily-run        (DAILY_RUN_SIZES=1000,10000,100000 and DAILY_RUN_HISTORY=100000 by default)
 *
 * Data is loaded through the store (`insertAll`, one statement per 1,000 rows), the rows cloned
 * from a subscription, its schedule record and a payment the services made (so each is what the
 * services' own Schemas write, with fresh ids): the subscriptions due carry today's `due_on`, the
 * others a day in the next 29; the history's payments are `paid_out`. After loading, `ANALYZE`
 * runs (PGlite never does by itself). The timed part is the simulator's advance over one daily
 * run (every job of the registry, for the organisation), on the test clock. PGlite runs in
 * memory; PostgreSQL runs when DATABASE_URL is set, in a schema of its own.
 */
import { performance } from "node:perf_hooks"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer, Redacted } = await import("effect")
const { TestClock } = await import("effect/testing")
const { SqlClient } = await import("effect/sql")
const { PgClient } = await import("@effect/sql-pg")
const { addDays, unsafeAmount, unsafeLocalDate } = await import("@paykit/core")
const engine = await import("@paykit/engine")
const engineTesting = await import("@paykit/engine/testing")
const store = await import("@paykit/store-sql")

const SIZES = (process.env["DAILY_RUN_SIZES"] ?? "1000,10000,100000").split(",").map(Number)
const HISTORY = Number(process.env["DAILY_RUN_HISTORY"] ?? 100_000)
/** Subscriptions per due one. */
const DUE_EVERY = 30
/** Rows per insert statement while loading. */
const CHUNK = 1_000
const ORG = "OR000000000001"
/** Monday 23 November 2026, 09:00 UTC. */
const START = Date.UTC(2026, 10, 23, 9)
const DAY = 86_400_000

type Client = import("effect").Layer.Layer<import("effect/sql").SqlClient.SqlClient, unknown>

/** A fresh id of `template`'s prefix and length, unique per `n`. */
const cloneId = (template: string, n: number) => {
  const tail = `Z${n.toString(36).toUpperCase()}`
  return template.slice(0, template.length - tail.length) + tail
}

/** Loads `rows` through `insert` in statements of `CHUNK` rows. */
const inChunks = <A>(rows: (i: number) => A, count: number, insert: (batch: ReadonlyArray<A>) => import("effect").Effect.Effect<void>) =>
  Effect.forEach(Array.from({ length: Math.ceil(count / CHUNK) }, (_, c) => c), (c) =>
    insert(Array.from({ length: Math.min(CHUNK, count - c * CHUNK) }, (_, i) => rows(c * CHUNK + i))), { discard: true })

/** One store: `subscriptions` of which `due` fall due at the next run, `history` paid-out payments; answers the run's seconds. */
const measure = (client: Client, subscriptions: number, due: number, history: number) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const storage = store.SqlStorage.pipe(Layer.provide(client), Layer.orDie)
    const context = yield* Layer.build(engine.sandboxEngineOn(storage, { seed: 7 }).pipe(Layer.provideMerge(storage), Layer.provideMerge(client), Layer.merge(TestClock.layer())))
    return yield* Effect.provideContext(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const { mandate } = yield* engineTesting.setUpPayer(ORG, { verifyCreditor: true })
      const simulator = yield* engine.Simulator
      // The mandate goes live, so the subscriptions can charge.
      yield* simulator.advanceTo(START + 4 * DAY)
      const template = yield* (yield* engine.Subscriptions).create(ORG, { amount: unsafeAmount(1000), currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } })
      const paid = yield* (yield* engine.Payments).create(ORG, { amount: unsafeAmount(2500), currency: "GBP", links: { mandate: mandate.id } })
      const subscriptionRepo = yield* engine.SubscriptionRepository
      const scheduleRepo = yield* engine.SubscriptionScheduleRepository
      const paymentRepo = yield* engine.PaymentRepository
      const sub = (yield* subscriptionRepo.get(ORG, template.id)).resource
      const record = (yield* scheduleRepo.get(ORG, template.id)).resource
      const payment = (yield* paymentRepo.get(ORG, paid.id)).resource
      // The run measured is tomorrow's: the due ones are due by then, the others on one of the 29 days after.
      const runDay = addDays(record.due_on ?? unsafeLocalDate(record.created_at.slice(0, 10)), 1)
      // The template is one of the due ones.
      const clones = subscriptions - 1
      const dueOf = (i: number) => (i < due - 1 ? runDay : addDays(runDay, 1 + (i % (DUE_EVERY - 1))))
      yield* inChunks((i) => ({ ...sub, id: cloneId(sub.id, i) }), clones, (batch) => subscriptionRepo.insertAll(ORG, batch))
      yield* inChunks((i) => ({ ...record, id: cloneId(sub.id, i), due_on: dueOf(i) }), clones, (batch) => scheduleRepo.insertAll(ORG, batch))
      yield* inChunks((i) => ({ ...payment, id: cloneId(payment.id, i), status: "paid_out" as const }), history, (batch) => paymentRepo.insertAll(ORG, batch))
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`ANALYZE`)
      const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
      const t0 = performance.now()
      yield* simulator.advanceTo(engine.nextDailyRunAfter(now) + 1)
      const seconds = (performance.now() - t0) / 1000
      const made = yield* paymentRepo.scan(ORG, { subscription: { op: "range" } })
      return { seconds, charged: made.length }
    }), context)
  })))

const pglite: Client = store.PgliteClient.layer({})
const databaseUrl = process.env["DATABASE_URL"]
const postgres = (url: string): Client =>
  Layer.unwrap<import("effect/sql").SqlClient.SqlClient, unknown, never, unknown, import("effect").Scope.Scope>(Effect.gen(function*() {
    const schema = `bench_daily_${process.pid}_${Date.now()}`
    const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    const found = yield* Effect.provideContext(Effect.serviceOption(PgClient.PgClient), admin)
    if (found._tag === "None") return yield* Effect.die("no admin client")
    const sql = found.value
    yield* Effect.acquireRelease(sql.unsafe(`CREATE SCHEMA ${schema}`), () => Effect.orDie(sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    return PgClient.layer({ url: Redacted.make(url), startupParameters: { search_path: schema }, maxConnections: 4 })
  }))

const stores: ReadonlyArray<readonly [string, () => Client]> = [
  ["PGlite", () => pglite],
  ...(databaseUrl === undefined ? [] : [["PostgreSQL", () => postgres(databaseUrl)] as const])
]

for (const [name, client] of stores) {
  // A first run warms the code up, so the first figure is not the JIT's.
  await measure(client(), 200, 7, 200)
  for (const size of SIZES) {
    const due = Math.max(1, Math.round(size / DUE_EVERY))
    const reference = await measure(client(), Math.max(1_000, due), due, 0)
    const run = await measure(client(), size, due, HISTORY)
    console.log(
      `${name}: ${size} subscriptions, ${due} due, ${HISTORY} paid out: ${run.seconds.toFixed(2)} s (${run.charged} charged); ` +
        `${Math.max(1_000, due)} subscriptions, ${due} due, no history: ${reference.seconds.toFixed(2)} s (${reference.charged} charged); ` +
        `ratio ${(run.seconds / reference.seconds).toFixed(2)}`
    )
  }
}
