import { OrganisationId } from "@paykit/core"
/**
 * Lists at scale: the latency of a first page, a filtered page and a page after a cursor, through
 * the engine's repository port (`@paykit/store-sql`, rows decoded by their Schema), with 1k, 10k
 * and 100k payments in the organisation, on PGlite and PostgreSQL. The target (issue 17) is a
 * ratio 100k/1k flat within 2x: a page reads about `limit` rows whatever the table holds.
 *
 *   npm run bench -- lists                     (or npx tsx bench/lists.bench.ts)
 *   npm run bench -- lists --sizes=1000,10000  (smaller sizes while developing)
 *
 * Each size loads a fresh schema: N payments built and decoded through the payments Schema,
 * written with `insertAll` in batches of 1,000, one mandate per 100 payments (so a mandate's page
 * of 50 is full at every size), 90% paid out; then `ANALYZE`, then each query runs WARMUP times
 * unmeasured and RUNS times measured, one at a time; the median is reported. PGlite runs in
 * memory; PostgreSQL when DATABASE_URL is set or one answers on 127.0.0.1:5432 (database "test").
 */
import { spawnSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { performance } from "node:perf_hooks"
import type { Layer as LayerType } from "effect"
import type { SqlClient as SqlClientModule } from "effect/sql"
import type { ListQuery } from "@paykit/engine"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer, Redacted, Schema } = await import("effect")
const { SqlClient } = await import("effect/sql")
const { PGlite } = await import("@electric-sql/pglite")
const { PgClient } = await import("@effect/sql-pg")
const core = await import("@paykit/core")
const engine = await import("@paykit/engine")
const store = await import("@paykit/store-sql")

type Sql = SqlClientModule.SqlClient

const sizesArg = process.argv.find((a) => a.startsWith("--sizes="))
const SIZES = sizesArg === undefined ? [1_000, 10_000, 100_000] : sizesArg.slice("--sizes=".length).split(",").map(Number)
const ORG = OrganisationId("OR000000000001")
const PER_MANDATE = 100
const BATCH = 1_000
const PAGE = 50
const WARMUP = 20
const RUNS = 200
const BASE_MS = Date.UTC(2025, 0, 1)

const decodePayment = Schema.decodeUnknownSync(engine.Payment)

/** The i-th payment, decoded by the payments Schema as the engine stores it. */
const paymentAt = (i: number) => {
  const ms = BASE_MS + i * 1_000
  return decodePayment({
    id: core.lowestIdAt(core.ID_PREFIXES.payment, ms),
    created_at: core.timestampFromMillis(ms),
    amount: 1_500,
    amount_refunded: 0,
    app_fee: null,
    charge_date: "2025-02-01",
    currency: "GBP",
    description: "Membership",
    faster_ach: null,
    reference: null,
    retry_if_possible: true,
    scheme: "bacs",
    status: i % 10 === 0 ? "pending_submission" : "paid_out",
    fx: { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null },
    metadata: {},
    links: { creditor: "CR000000000001", mandate: `MD${String(Math.floor(i / PER_MANDATE)).padStart(12, "0")}` }
  })
}

interface Query {
  readonly name: string
  readonly query: (size: number, pick: number) => ListQuery<"mandate" | "status" | "created_at">
}

const QUERIES: ReadonlyArray<Query> = [
  { name: "first page", query: () => ({ limit: PAGE }) },
  { name: "page after a cursor (middle of the list)", query: (size) => ({ limit: PAGE, after: paymentAt(Math.floor(size / 2)).id }) },
  {
    name: "filtered by mandate",
    query: (size, pick) => ({ limit: PAGE, filters: { mandate: { op: "eq", value: `MD${String(pick % (size / PER_MANDATE)).padStart(12, "0")}` } } })
  },
  { name: "filtered by status (2 values)", query: () => ({ limit: PAGE, filters: { status: engine.oneOf(["pending_submission", "submitted"]) } }) }
]

const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Loads `size` payments through the storage on `client`, then times every query; answers ms per query. */
const measure = (client: LayerType.Layer<Sql, unknown>, size: number) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(store.SqlStorage.pipe(Layer.provideMerge(client), Layer.orDie))
    return yield* Effect.provideContext(Effect.gen(function*() {
      const repo = (yield* engine.RepositoryBackend).repository(engine.payments)
      for (let start = 0; start < size; start += BATCH) {
        yield* repo.insertAll(ORG, Array.from({ length: Math.min(BATCH, size - start) }, (_, k) => paymentAt(start + k)))
      }
      yield* store.analyze
      const times: Record<string, number> = {}
      for (const { name, query } of QUERIES) {
        const samples: Array<number> = []
        for (let run = 0; run < WARMUP + RUNS; run++) {
          const q = query(size, run * 7919)
          const t0 = performance.now()
          const page = yield* repo.list(ORG, q)
          if (run >= WARMUP) samples.push(performance.now() - t0)
          if (page.items.length !== PAGE) throw new Error(`${name} at ${size}: ${page.items.length} items, not ${PAGE}`)
        }
        times[name] = median(samples)
      }
      return times
    }), context)
  })))

const schemaName = () => `bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`

const pgliteRun = async (size: number) => {
  const db = await PGlite.create()
  try {
    return await measure(store.PgliteClient.layer({ instance: db }), size)
  } finally {
    await db.close()
  }
}

const postgresRun = async (url: string, size: number) => {
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)),
      PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })
    ))
  const schema = schemaName()
  await admin(`CREATE SCHEMA ${schema}`)
  try {
    // As PostgresStorage connects, in a schema of its own.
    return await measure(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, startupParameters: { search_path: schema } }), size)
  } finally {
    await admin(`DROP SCHEMA ${schema} CASCADE`)
  }
}

const postgresUrl = (): string | undefined => {
  const fromEnv = process.env["DATABASE_URL"]
  if (fromEnv !== undefined && fromEnv.length > 0) return fromEnv
  const probe = spawnSync("pg_isready", ["-h", "127.0.0.1", "-p", "5432", "-q"])
  return probe.status === 0 ? "postgresql://postgres@127.0.0.1:5432/test" : undefined
}

const databases: Array<readonly [string, (size: number) => Promise<Record<string, number>>]> = [["PGlite 0.5.16 (in memory)", pgliteRun]]
const url = postgresUrl()
if (url !== undefined) databases.push(["PostgreSQL (loopback, @effect/sql-pg 4.0.5)", (size) => postgresRun(url, size)])
else console.log("(no PostgreSQL answered: its rows are absent)\n")

const fmt = (ms: number | undefined) => (ms === undefined ? "-" : ms.toFixed(2))
const label = (n: number) => (n >= 1_000 ? `${n / 1_000}k` : String(n))
console.log(`Median ms per page of ${PAGE} through the repository port, ${RUNS} runs after ${WARMUP} unmeasured; Node ${process.version}.\n`)
console.log(`| database | query | ${SIZES.map(label).join(" | ")} | ${label(SIZES[SIZES.length - 1] ?? 0)}/${label(SIZES[0] ?? 0)} |`)
console.log(`|---|---|${SIZES.map(() => "---:").join("|")}|---:|`)
for (const [name, run] of databases) {
  const bySize: Array<Record<string, number>> = []
  for (const size of SIZES) bySize.push(await run(size))
  for (const { name: query } of QUERIES) {
    const cells = bySize.map((times) => times[query])
    const first = cells[0]
    const last = cells[cells.length - 1]
    const ratio = first === undefined || last === undefined ? "-" : (last / first).toFixed(2)
    console.log(`| ${name} | ${query} | ${cells.map(fmt).join(" | ")} | ${ratio} |`)
  }
}
