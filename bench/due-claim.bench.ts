/**
 * Many organisations: the due-work worker's cost per poll with 10,000 organisations
 * against the same with 10, in one run. A partner platform's merchants are each an organisation
 * with a clock of its own and a daily-run row; the worker's poll must not grow with their number.
 *
 *   npm run bench -- due-claim        (DUE_CLAIM_ORGANISATIONS=10,10000 by default)
 *
 * Each store holds N sandbox organisations, each with its clock a week ahead of real time
 * (`organisation_clocks`) and its next daily run a day ahead of its own clock (`due_work`), loaded
 * in one statement each; then `ANALYZE`. The stores are measured in alternating rounds (the first
 * rounds warm the code up for all alike), two figures per store, each the median of its rounds:
 *
 * - idle poll: `DueWorker.runDue` with nothing due, what the server's worker does every 250 ms
 *   (the webhook outbox's pump aside: one statement on an empty outbox, whatever N);
 * - claim: one row falls due (scheduled on one organisation's clock), `claimDue` takes it, and its
 *   completion deletes it.
 *
 * The peer is the store with 10 organisations, run in the same process; the ratio N / 10 is the
 * figure (target: independent of the count, i.e. near 1). PGlite runs in memory; PostgreSQL when
 * DATABASE_URL is set, in a schema of its own.
 */
import { performance } from "node:perf_hooks"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer, Redacted } = await import("effect")
const { SqlClient } = await import("effect/sql")
const { PgClient } = await import("@effect/sql-pg")
const engine = await import("@paykit/engine")
const store = await import("@paykit/store-sql")

const COUNTS = (process.env["DUE_CLAIM_ORGANISATIONS"] ?? "10,10000").split(",").map(Number)
const ROUNDS = Number(process.env["DUE_CLAIM_ROUNDS"] ?? 200)
const DAY = 86_400_000

type Client = import("effect").Layer.Layer<import("effect/sql").SqlClient.SqlClient, unknown>

/** The median of `xs`, in milliseconds. */
const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

/** One store of `organisations` sandbox organisations, loaded; its context for `round`. */
const loaded = (client: Client, organisations: number) =>
  Effect.gen(function*() {
    const probes: import("@paykit/engine").DueWorkDeclarations = {
      pumps: [],
      kinds: [{ kind: "probe", run: () => Effect.succeed(engine.dueDone) }]
    }
    const layer = engine.DueWorker.layer([probes], { owner: "bench" }).pipe(Layer.provideMerge(store.SqlStorage), Layer.provideMerge(client), Layer.orDie)
    const context = yield* Layer.build(layer)
    yield* Effect.provideContext(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const now = Date.now()
      yield* Effect.orDie(sql`INSERT INTO organisation_clocks (organisation_id, offset_ms)
        SELECT 'OR' || lpad(g::text, 12, '0'), ${7 * DAY}::bigint FROM generate_series(1, ${organisations}::int) g`)
      yield* Effect.orDie(sql`INSERT INTO due_work (organisation_id, kind, key, due_at)
        SELECT 'OR' || lpad(g::text, 12, '0'), 'daily_run', 'next', ${now + 8 * DAY}::bigint FROM generate_series(1, ${organisations}::int) g`)
      yield* Effect.orDie(sql`ANALYZE`)
    }), context)
    return context
  })

/** One round on a loaded store: the milliseconds of an idle poll, then of the claim of one row made due. */
const round = (n: number) =>
  Effect.gen(function*() {
    const dueStore = yield* engine.DueWorkStore
    const worker = yield* engine.DueWorker
    const t0 = performance.now()
    const ran = yield* worker.runDue
    const idle = performance.now() - t0
    if (ran !== 0) return yield* Effect.die(new Error(`an idle poll ran ${ran} rows`))
    // Due on its organisation's clock (a week ahead), not on real time.
    const realNow = Date.now()
    yield* dueStore.schedule({ organisation: "OR000000000001", kind: "probe", key: `k${n}`, dueAt: realNow + 6 * DAY })
    const t1 = performance.now()
    const [item] = yield* dueStore.claimDue({ owner: "bench", realNow, until: realNow + 60_000 }, 1)
    const claim = performance.now() - t1
    if (item === undefined) return yield* Effect.die(new Error("the due row was not claimed"))
    yield* dueStore.complete(item, "bench", engine.dueDone)
    return { idle, claim }
  })

/**
 * The stores of `COUNTS` organisations, each loaded, then measured in alternating rounds (so the
 * machine's other load falls on all alike); answers each one's median idle poll and claim.
 */
const measure = (client: () => Client) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const contexts = yield* Effect.forEach(COUNTS, (count) => loaded(client(), count))
    const figures = COUNTS.map(() => ({ idle: [] as Array<number>, claim: [] as Array<number> }))
    for (let n = 0; n < ROUNDS; n++) {
      for (const [i, context] of contexts.entries()) {
        const r = yield* Effect.provideContext(round(n), context)
        figures[i]?.idle.push(r.idle)
        figures[i]?.claim.push(r.claim)
      }
    }
    return figures.map((f) => ({ idle: median(f.idle), claim: median(f.claim) }))
  })))

const pglite = (): Client => store.PgliteClient.layer({})
const databaseUrl = process.env["DATABASE_URL"]
const postgres = (url: string): Client =>
  Layer.unwrap<import("effect/sql").SqlClient.SqlClient, unknown, never, unknown, import("effect").Scope.Scope>(Effect.gen(function*() {
    const schema = `bench_claim_${process.pid}_${Date.now()}`
    const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    const found = yield* Effect.provideContext(Effect.serviceOption(PgClient.PgClient), admin)
    if (found._tag === "None") return yield* Effect.die("no admin client")
    const sql = found.value
    yield* Effect.acquireRelease(sql.unsafe(`CREATE SCHEMA ${schema}`), () => Effect.orDie(sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    return PgClient.layer({ url: Redacted.make(url), startupParameters: { search_path: schema }, maxConnections: 2 })
  }))

const stores: ReadonlyArray<readonly [string, () => Client]> = [
  ["PGlite", pglite],
  ...(databaseUrl === undefined ? [] : [["PostgreSQL", () => postgres(databaseUrl)] as const])
]

console.log(`${ROUNDS} rounds per store, medians; each organisation's clock a week ahead, its next daily run a day ahead of that\n`)
console.log("| database | organisations | idle poll | claim of one due row | idle ratio to the smallest | claim ratio to the smallest |")
console.log("|---|---:|---:|---:|---:|---:|")
for (const [name, client] of stores) {
  const figures = await measure(client)
  const base = figures[0]
  if (base === undefined) break
  for (const [i, m] of figures.entries()) {
    console.log(`| ${name} | ${COUNTS[i]} | ${m.idle.toFixed(2)} ms | ${m.claim.toFixed(2)} ms | ${(m.idle / base.idle).toFixed(2)} | ${(m.claim / base.claim).toFixed(2)} |`)
  }
}
