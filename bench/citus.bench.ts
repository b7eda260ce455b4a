/**
 * paykit on Citus beside one PostgreSQL, side by side in one run (docs/scaling.md):
 *
 * 1. The daily run's charges per second (`support/daily-days.ts`, as `daily-processes.bench.ts`
 *    runs it: 6 organisations x 1,000 subscriptions due, server worker processes claiming their
 *    daily runs, every subscription checked charged exactly once): on one PostgreSQL
 *    (`DATABASE_URL`) with 1 process, the peer; on the Citus coordinator with two workers
 *    (`CITUS_URL`) with 1 process through the coordinator; and with 3 processes, one through each
 *    node (the coordinator and the two workers; Citus routes every statement from any node); and,
 *    the peer of paykit's own routing, 1 process through the coordinator with
 *    `PAYKIT_CITUS_ROUTING=off` (every statement through the coordinator).
 * 2. The request path's `GET /customers/{id}` (the token lookup, the rate limit, a read by id),
 *    autocannon with `CITUS_BENCH_CONNECTIONS` (8) connections for `CITUS_BENCH_SECONDS` (10) s, on a
 *    server in this process on PostgreSQL, then on Citus, routed and not.
 *
 * Every node of the cluster and the PostgreSQL share this machine's cores (two), so the cluster
 * cannot run faster than one node here: the figures say what the distribution costs a charge and a
 * request (per core), not what more machines give, which docs/scaling.md models from them. Beside
 * the rates, each day's own CPU (its worker processes', and its database's backends' on every node:
 * `databaseCpu`) gives charges a CPU second, which the other load of a shared machine does not
 * change. So that those backends are the day's alone, the PostgreSQL day runs in a database of its
 * own made on `DATABASE_URL`'s server, and `CITUS_URL` should name a database of the benchmark's
 * own (`cluster.sh --database paykit_bench`).
 *
 *   DATABASE_URL=… CITUS_URL=postgresql://postgres@127.0.0.1:5441/paykit_bench npm run bench -- citus
 *   CITUS_BENCH_ORGANISATIONS=6 CITUS_BENCH_DUE=1000   the day's size
 *   CITUS_BENCH_PARTS=day,get                          which parts run (`get` alone: the request path)
 *   CITUS_BENCH_STATEMENTS=on                          the heaviest statements of the PostgreSQL day and
 *                                                      of the routed Citus day, node by node, from
 *                                                      pg_stat_statements (support/statements.ts says
 *                                                      what it needs); off by default: it costs a little
 */
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

interface AutocannonResult {
  readonly requests: { readonly average: number }
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly errors: number
  readonly non2xx: number
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (err: unknown, result: AutocannonResult) => void
) => unknown
const autocannonSpecifier: string = "autocannon"
const autocannon = ((await import(autocannonSpecifier)) as { default: Autocannon }).default

const { Effect, Layer, ManagedRuntime, Option, Redacted } = await import("effect")
const { SqlClient } = await import("effect/sql")
const { serverUrl } = await import("@paykit/http")
const store = await import("@paykit/store-sql")
const server = await import("@paykit/server")
const harness = await import("../packages/server/test/harness.ts")
const { chargesPerCpuSecond, report, runDay } = await import("./support/daily-days.ts")
const { databaseCpu } = await import("./support/cpu-time.ts")
const { statementsWatch } = await import("./support/statements.ts")
const { RAISED_RATE_LIMIT } = await import("./support/http-servers.ts")
type Day = import("./support/daily-days.ts").Day
type Target = import("./support/daily-days.ts").Target

const ORGANISATIONS = Number(process.env["CITUS_BENCH_ORGANISATIONS"] ?? 6)
const DUE = Number(process.env["CITUS_BENCH_DUE"] ?? 1_000)
const CONNECTIONS = Number(process.env["CITUS_BENCH_CONNECTIONS"] ?? 8)
const SECONDS = Number(process.env["CITUS_BENCH_SECONDS"] ?? 10)
const TOKEN = "paykit_bench_citus_token_00001"
const PARTS = new Set((process.env["CITUS_BENCH_PARTS"] ?? "day,get").split(",").map((part) => part.trim()))
const STATEMENTS = process.env["CITUS_BENCH_STATEMENTS"] === "on"

const databaseUrl = process.env["DATABASE_URL"] ?? ""
const citusUrl = process.env["CITUS_URL"] ?? ""
if (databaseUrl === "" || citusUrl === "") {
  console.log("citus: compares Citus with one PostgreSQL; set DATABASE_URL and CITUS_URL (../shared/citus/cluster.sh prints one)")
  process.exit(0)
}

/** The coordinator's URL, then each worker's, on the same database. */
const nodeUrls = async (url: string): Promise<ReadonlyArray<string>> => {
  const runtime = ManagedRuntime.make(store.postgresClient(url, { maxConnections: 1 }))
  try {
    const workers = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ readonly nodename: string; readonly nodeport: number }>`SELECT nodename, nodeport FROM pg_dist_node
        WHERE groupid > 0 AND noderole = 'primary' ORDER BY nodeid`))
    return [url, ...workers.map((node) => {
      const at = new URL(url)
      at.hostname = node.nodename
      at.port = String(node.nodeport)
      return at.toString()
    })]
  } finally {
    await runtime.dispose()
  }
}

const rate = (day: Day) => day.charges / day.seconds
const nameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1))

/** A database of this run's own on `DATABASE_URL`'s server, dropped at the end. */
const ownDatabase = async () => {
  const name = `paykit_bench_${process.pid}`
  const admin = ManagedRuntime.make(store.postgresClient(databaseUrl, { maxConnections: 1 }))
  await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name}`)))
  const url = new URL(databaseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
      await admin.dispose()
    }
  }
}

/** `GET /customers/{id}` on a server in this process on the database at `url` (a fresh schema of its own). */
const getRate = async (name: string, url: string, routing: "on" | "off" = "on") => {
  const schema = `bench_citus_get_${process.pid}_${Date.now()}`
  const admin = ManagedRuntime.make(store.postgresClient(url, { maxConnections: 1 }))
  await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA ${schema}`)))
  const config = {
    port: 0,
    host: "127.0.0.1",
    mode: "sandbox" as const,
    database: { _tag: "Postgres" as const, url: Redacted.make(url), schema, citusRouting: routing },
    sandboxToken: Option.some(Redacted.make(TOKEN))
  }
  const runtime = ManagedRuntime.make(server.makeServer(config, { rateLimits: () => RAISED_RATE_LIMIT }).pipe(Layer.provide(harness.testLogs([]))))
  try {
    const base = await runtime.runPromise(serverUrl)
    const made = await harness.localClient(TOKEN, base).customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" } as never)
    const cpu = databaseCpu([nameOf(url)])
    cpu.sample()
    const sampling = setInterval(() => cpu.sample(), 50)
    const result = await new Promise<AutocannonResult>((resolve, reject) =>
      autocannon({ url: `${base}/customers/${made.id ?? ""}`, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${TOKEN}`, "gocardless-version": "2015-07-06" } },
        (error, answer) => error === null || error === undefined ? resolve(answer) : reject(error)))
    clearInterval(sampling)
    cpu.sample()
    const perRequest = (cpu.spent() / (result.requests.average * SECONDS)) * 1e6
    const byNode = [...cpu.spentByNode()].sort().map(([node, seconds]) => `${node} ${((seconds / (result.requests.average * SECONDS)) * 1e6).toFixed(0)} µs`).join(", ")
    console.log(`${name}: ${result.requests.average.toFixed(0)} requests/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `the database's backends ${perRequest.toFixed(0)} µs of CPU a request (${byNode}; ${result.non2xx} not 2xx, ${result.errors} errors)`)
    return { ...result, perRequest }
  } finally {
    await runtime.dispose()
    await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    await admin.dispose()
  }
}

const postgres = await ownDatabase()
try {
  if (PARTS.has("day")) await days()
  if (PARTS.has("get")) await gets()
} finally {
  await postgres.drop()
}

async function days() {
  const nodes = await nodeUrls(citusUrl)
  console.log(`\nthe daily run: ${ORGANISATIONS} organisations x ${DUE} due`)
  const onPostgres = await watched([postgres.url], "PostgreSQL", (hooks) =>
    runDay({ url: postgres.url, processUrl: () => postgres.url, databases: [nameOf(postgres.url)], ...hooks }, 1, ORGANISATIONS, DUE))
  report("PostgreSQL, 1 process", onPostgres)
  const cluster = { url: citusUrl, databases: [nameOf(citusUrl)] }
  const onCitus = await watched(nodes, "Citus", (hooks) => runDay({ ...cluster, processUrl: () => citusUrl, ...hooks }, 1, ORGANISATIONS, DUE))
  report("Citus (coordinator + 2 workers), 1 process through the coordinator", onCitus)
  const onCitusUnrouted = await runDay({ ...cluster, processUrl: () => citusUrl, routing: "off" }, 1, ORGANISATIONS, DUE)
  report("Citus, 1 process through the coordinator, not routed (PAYKIT_CITUS_ROUTING=off)", onCitusUnrouted)
  const onCitus3 = await runDay({ ...cluster, processUrl: (i) => nodes[i % nodes.length] ?? citusUrl }, 3, ORGANISATIONS, DUE)
  report("Citus, 3 processes, one through each node", onCitus3)
  const compare = (label: string, day: Day, peer: Day) =>
    console.log(`${label}: ${(rate(day) / rate(peer)).toFixed(2)}x the charges/s (${rate(day).toFixed(0)} against ${rate(peer).toFixed(0)}), ` +
      `${(chargesPerCpuSecond(day) / chargesPerCpuSecond(peer)).toFixed(2)}x the charges a CPU second (${chargesPerCpuSecond(day).toFixed(0)} against ${chargesPerCpuSecond(peer).toFixed(0)})`)
  compare("Citus 1 process / PostgreSQL 1 process", onCitus, onPostgres)
  compare("Citus 1 process, routed / not routed", onCitus, onCitusUnrouted)
  compare("Citus 3 processes / Citus 1 process", onCitus3, onCitus)
}

/** A day, with its heaviest statements on each of `urls` reported when `CITUS_BENCH_STATEMENTS=on`. */
async function watched(urls: ReadonlyArray<string>, label: string, day: (hooks: Pick<Target, "afterWarmUp" | "afterDay">) => Promise<Day>): Promise<Day> {
  if (!STATEMENTS) return day({})
  const watch = await statementsWatch(urls)
  try {
    return await day({ afterWarmUp: watch.reset, afterDay: () => watch.report(label) })
  } finally {
    await watch.close()
  }
}

async function gets() {
  console.log(`\nthe request path: GET /customers/{id}, ${CONNECTIONS} connections, ${SECONDS} s each`)
  const getPostgres = await getRate("PostgreSQL", postgres.url)
  const getCitus = await getRate("Citus, through the coordinator", citusUrl)
  const getUnrouted = await getRate("Citus, through the coordinator, not routed", citusUrl, "off")
  const compare = (label: string, get: typeof getCitus, peer: typeof getCitus) =>
    console.log(`${label}: ${(get.requests.average / peer.requests.average).toFixed(2)}x the requests/s, p99 ${(get.latency.p99 / peer.latency.p99).toFixed(2)}x, ` +
      `${(get.perRequest / peer.perRequest).toFixed(2)}x the database's CPU a request`)
  compare("Citus / PostgreSQL", getCitus, getPostgres)
  compare("Citus, routed / not routed", getCitus, getUnrouted)
}
