import { OrganisationId } from "@paykit/core"
/**
 * Storage: inserts per second and point reads per second through the engine's repository port
 * (`@paykit/store-sql`) against raw queries on the same database, in one run.
 *
 *   npx tsx bench/store.bench.ts          (or `npm run bench store`)
 *
 * Each side writes N customers one statement at a time (autocommit, as the API does for a
 * single-resource create) and then reads M of them back by id in a random order, one at a time.
 * The repository side encodes each customer with its Schema, extracts its filter values, and on
 * reads decodes the row and the resource; the raw side sends the same INSERT with pre-serialised
 * JSON and reads the same row with one SELECT, parsing nothing it was not handed. Both sides write
 * the same table shape (the migrated `resources` table, each side in a schema of its own), so the
 * ratio is the cost of the port and its decoding, not of a different table.
 *
 * PGlite runs in memory. PostgreSQL runs when DATABASE_URL is set or one answers on
 * 127.0.0.1:5432 (database "test", trust auth); its raw side is `@effect/sql-pg`'s client used
 * directly with `unsafe`, its repository side the same client under the repositories.
 */
import { spawnSync } from "node:child_process"
import { ensureSourceCondition } from "./support/source-condition.ts"
import { randomUUID } from "node:crypto"
import { performance } from "node:perf_hooks"
import type { Layer as LayerType } from "effect"
import type { SqlClient as SqlClientModule } from "effect/sql"

ensureSourceCondition()

const { Effect, Layer, Redacted } = await import("effect")
const { SqlClient } = await import("effect/sql")
const { PGlite } = await import("@electric-sql/pglite")
const { PgClient } = await import("@effect/sql-pg")
const engine = await import("@paykit/engine")
const engineTesting = await import("@paykit/engine/testing")
const store = await import("@paykit/store-sql")

const N = 2_000
const M = 5_000
const ORG = OrganisationId("OR000000000001")

const customers = Array.from({ length: N }, (_, i) => engineTesting.sampleCustomer(i + 1))
// A fixed shuffle of ids to read: every read hits a row, in no useful order.
let seed = 20261121
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648)
const readOrder = Array.from({ length: M }, () => customers[next() % N]?.id ?? "")

interface Rates {
  readonly inserts: number
  readonly reads: number
}

type Sql = SqlClientModule.SqlClient

const timed = async (work: () => Promise<void>, count: number): Promise<number> => {
  const t0 = performance.now()
  await work()
  return count / ((performance.now() - t0) / 1000)
}

/** Through the repository port, on whatever SqlClient `client` provides. */
const throughRepositories = (client: LayerType.Layer<Sql, unknown>) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(store.SqlStorage.pipe(Layer.provide(client), Layer.orDie))
    const backend = yield* Effect.provideContext(Effect.gen(function*() { return yield* engine.RepositoryBackend }), context)
    const repo = backend.repository(engine.customers)
    const inserts = yield* Effect.promise(() =>
      timed(() => Effect.runPromise(Effect.forEach(customers, (c) => repo.insert(ORG, c), { discard: true })), N))
    const reads = yield* Effect.promise(() =>
      timed(() => Effect.runPromise(Effect.forEach(readOrder, (id) => repo.get(ORG, id), { discard: true })), M))
    return { inserts, reads } satisfies Rates
  })))

const insertSql = `INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
  VALUES ($1, 'customers', $2, 1, $3::timestamptz, $4::jsonb, $5::json)`
const readSql = `SELECT version, data FROM resources WHERE organisation_id = $1 AND resource_type = 'customers' AND id = $2`
const rawRows = customers.map((c) => [ORG, c.id, c.created_at, JSON.stringify({ created_at: c.created_at, email: c.email }), JSON.stringify(c)])

const rawPglite = async (db: InstanceType<typeof PGlite>): Promise<Rates> => {
  const inserts = await timed(async () => {
    for (const row of rawRows) await db.query(insertSql, row)
  }, N)
  const reads = await timed(async () => {
    for (const id of readOrder) await db.query(readSql, [ORG, id])
  }, M)
  return { inserts, reads }
}

const rawSqlClient = (sql: Sql): Promise<Rates> =>
  Effect.runPromise(Effect.gen(function*() {
    const inserts = yield* Effect.promise(() =>
      timed(() => Effect.runPromise(Effect.forEach(rawRows, (row) => sql.unsafe(insertSql, row), { discard: true })), N))
    const reads = yield* Effect.promise(() =>
      timed(() => Effect.runPromise(Effect.forEach(readOrder, (id) => sql.unsafe(readSql, [ORG, id]), { discard: true })), M))
    return { inserts, reads } satisfies Rates
  }).pipe(Effect.orDie))

const schemaName = () => `bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`

const ROUNDS = 2
const best = (all: ReadonlyArray<Rates>): Rates => ({
  inserts: Math.max(...all.map((r) => r.inserts)),
  reads: Math.max(...all.map((r) => r.reads))
})

/**
 * Runs both sides ROUNDS times, alternating, each time in a fresh schema, and keeps each side's
 * best: the first statements on a fresh PGlite run while V8 is still compiling its WebAssembly,
 * and whichever side ran first would otherwise pay for that.
 */
const alternate = async (side: {
  readonly fresh: () => Promise<{ readonly schema: string; readonly drop: () => Promise<void> }>
  readonly repo: (schema: string) => Promise<Rates>
  readonly raw: (schema: string) => Promise<Rates>
}): Promise<{ repo: Rates; raw: Rates }> => {
  const repo: Array<Rates> = []
  const raw: Array<Rates> = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const [run, into] of [[side.raw, raw], [side.repo, repo]] as const) {
      const { schema, drop } = await side.fresh()
      try {
        into.push(await run(schema))
      } finally {
        await drop()
      }
    }
  }
  return { repo: best(repo), raw: best(raw) }
}

const pgliteResults = async (): Promise<{ repo: Rates; raw: Rates }> => {
  const db = await PGlite.create()
  const results = await alternate({
    fresh: async () => {
      const schema = schemaName()
      await db.query(`CREATE SCHEMA ${schema}`)
      return { schema, drop: async () => void await db.query(`DROP SCHEMA ${schema} CASCADE`) }
    },
    repo: (schema) => throughRepositories(store.PgliteClient.layer({ instance: db, searchPath: schema })),
    raw: async (schema) => {
      await Effect.runPromise(Effect.provide(store.migrate(), store.PgliteClient.layer({ instance: db, searchPath: schema })))
      await db.query(`SET search_path TO ${schema}`)
      return rawPglite(db)
    }
  })
  await db.close()
  return results
}

const postgresResults = (url: string): Promise<{ repo: Rates; raw: Rates }> => {
  const client = (schema: string) =>
    PgClient.layer({ url: Redacted.make(url), maxConnections: 1, startupParameters: { search_path: schema } })
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.gen(function*() { return yield* (yield* SqlClient.SqlClient).unsafe(statement) }), PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
  return alternate({
    fresh: async () => {
      const schema = schemaName()
      await admin(`CREATE SCHEMA ${schema}`)
      return { schema, drop: async () => void await admin(`DROP SCHEMA ${schema} CASCADE`) }
    },
    repo: (schema) => throughRepositories(client(schema)),
    raw: (schema) =>
      Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(client(schema))
        const sql = yield* Effect.provideContext(Effect.gen(function*() { return yield* SqlClient.SqlClient }), context)
        yield* store.migrate().pipe(Effect.provideContext(context))
        return yield* Effect.promise(() => rawSqlClient(sql))
      })))
  })
}

const postgresUrl = (): string | undefined => {
  const fromEnv = process.env["DATABASE_URL"]
  if (fromEnv !== undefined && fromEnv.length > 0) return fromEnv
  const probe = spawnSync("pg_isready", ["-h", "127.0.0.1", "-p", "5432", "-q"])
  return probe.status === 0 ? "postgresql://postgres@127.0.0.1:5432/test" : undefined
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-GB")
const rows: Array<readonly [string, Rates, Rates]> = []
const pglite = await pgliteResults()
rows.push(["PGlite 0.5.16 (in memory)", pglite.repo, pglite.raw])
const url = postgresUrl()
if (url !== undefined) {
  const postgres = await postgresResults(url)
  rows.push(["PostgreSQL (loopback, @effect/sql-pg 4.0.5)", postgres.repo, postgres.raw])
} else {
  console.log("(no PostgreSQL answered: its rows are absent)\n")
}

console.log(`${N.toLocaleString("en-GB")} inserts and ${M.toLocaleString("en-GB")} point reads, one at a time, best of ${ROUNDS} alternating rounds; Node ${process.version}.\n`)
console.log("| database | operation | repositories (ops/s) | raw queries (ops/s) | repositories / raw |")
console.log("|---|---|---:|---:|---:|")
for (const [label, repo, raw] of rows) {
  console.log(`| ${label} | insert | ${fmt(repo.inserts)} | ${fmt(raw.inserts)} | ${(repo.inserts / raw.inserts).toFixed(2)} |`)
  console.log(`| ${label} | point read | ${fmt(repo.reads)} | ${fmt(raw.reads)} | ${(repo.reads / raw.reads).toFixed(2)} |`)
}
