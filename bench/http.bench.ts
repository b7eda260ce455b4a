/**
 * HTTP throughput and tail latency: the paykit API (the full gateway: version header, bearer token
 * hashed and looked up, organisation scoping, request id, JSON envelope) against a bare `node:http`
 * server doing the same work by hand, in the same run, driven by autocannon with 50 connections.
 *
 *   npx tsx bench/http.bench.ts          (or `npm run bench http`)
 *
 * Endpoints: `GET /payouts/{id}` and `POST /outbound_payments` (the two the spec's targets name),
 * `GET /creditors/{id}` and `GET /creditors?limit=50`, over in-memory data. `BENCH_CASES=payout,outbound`
 * picks cases. Case `outbound-constant` is a diagnostic: the same POST through paykit's whole HTTP
 * path with the engine's creation replaced by a constant answer, so the POST's gap to the bare
 * server splits into what the HTTP layer costs and what the engine does.
 *
 * Case `started`: the server exactly as `npm start` composes it (`makeServer(config)` alone: PGlite
 * on a temporary directory, the request log writing a line per request to stdout, here /dev/null)
 * against the bare server on a PGlite on a directory. Cases `postgres` and `postgres3` (when
 * DATABASE_URL is set): the server on PostgreSQL in one process, and in three behind one port
 * (`node:cluster`), against a bare server doing the same two queries through `@effect/sql-pg`'s
 * client (one and three processes).
 *
 * Case `npm-start`: `GET /creditors/{id}` (the sandbox creditor) from the server `npm
 * start` runs, as it runs it: `packages/server/src/main.ts` in a process of its own, configured by
 * the environment (PGlite on a temporary directory, the due-work worker, the webhook pump, the JSON
 * logs on a pipe this benchmark reads), against the bare server on a file-backed PGlite reading a
 * creditor of its own by the same token lookup and scoped read. `{creditor}` in a case's path is
 * each server's own creditor. The bare PGlite servers send their statements through PGlite's
 * `query`, unnamed, planned at every run; paykit's PGlite client names them (docs/storage.md).
 * Case `npm-start-named`: the same against the bare server sending named statements through that
 * client, as the bare PostgreSQL server sends its through `@effect/sql-pg`'s.
 *
 * Cases `request-log-get` and `request-log-post`: the stored request log's cost, `npm start` itself
 * (as case `npm-start`) with the log on, its default, against the same with
 * `PAYKIT_REQUEST_LOG=off`: `GET /creditors/{id}` and `POST /customers` (a customer a request, no
 * rate limit). The "bare" columns of their rows are the server without the log.
 *
 * Case `pglite`: `GET /payouts/{id}` through the whole server of `@paykit/server` (sandbox mode,
 * SQL access tokens, the engine on `@paykit/store-sql` over an in-memory PGlite), against a bare
 * `node:http` server on a PGlite instance of its own with the same tables and rows, doing by hand
 * what the server's request does in SQL (`bench/support/http-servers.ts`).
 *
 * Case `pglite-post`: `POST /outbound_payments` through the same whole server on PGlite, against
 * the same bare server doing the creation by hand: the token's row, the rate-limit window's
 * upsert, the body checked, then in one transaction the creditor and recipient read, the payment's
 * row, the creditor's payment account looked up (opened on first use), the approval deadline's
 * due-work row, the two transition rows and the two events (the outbox trigger queues them on both
 * sides). The outbound payment is the creation chosen because it is the POST the spec's targets
 * name and writes every kind of row a creation writes; `POST /customers` writes one resource row,
 * no history and no events.
 *
 * Each bare server answers with the body paykit answers (only ids and times differ): for the POST
 * it checks the body, looks the recipient up, checks its name as the sandbox does, opens the
 * creditor's payment account on first use, and stores the payment, awaiting approval, with its two
 * events. `bench/test/http-servers.test.ts` holds the pairs to that.
 *
 * Each server runs in a process of its own (`BENCH_PROCESSES=0` runs them in this one, as the
 * benchmark did until 2026-11-22), so neither's heap, garbage collection or compiled code colours
 * the other's figures: sharing one heap, the bare server's stored payments were marked by every
 * collection paykit's requests triggered, and the other way round. autocannon runs in a worker
 * thread of this process.
 *
 * The outbound payment POSTs carry no `Idempotency-Key` (autocannon repeats one request, which a
 * key would turn into conflicts), and both servers count them against a per-organisation window
 * whose limit is raised past the run's volume: the spec's 300 a minute would turn the run into 429s.
 * On PGlite the window is the SQL limiter's row on both sides (`ServerOptions.rateLimits` raises
 * paykit's).
 */
import { fork } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

// autocannon ships no types; this is the part of its API used here.
interface AutocannonResult {
  readonly requests: { readonly average: number }
  readonly latency: { readonly p99: number }
  readonly errors: number
  readonly non2xx: number
}
interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string>; method?: string; body?: string; workers?: number },
  done: (err: unknown, result: AutocannonResult) => void
) => AutocannonInstance
const autocannonSpecifier: string = "autocannon"
const autocannon = ((await import(autocannonSpecifier)) as { default: Autocannon }).default

const CONNECTIONS = 50
const DURATION_S = Number(process.env["BENCH_SECONDS"] ?? 4)
/**
 * Paykit and bare runs alternate this many times; the table gives each side's median. Five, as in
 * every table of docs/benchmarks.md: with three, one slow spell of the machine decides a median.
 */
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5)
const SEPARATE_PROCESSES = process.env["BENCH_PROCESSES"] !== "0"
/**
 * With the servers in processes of their own, autocannon runs on this process's thread, where
 * every response's latency is seen in microseconds (its own percentiles are whole milliseconds,
 * too coarse at 2 to 5 ms: 2 against 3 ms reads as 1.5x). With the servers in this process it runs
 * in a worker thread (`BENCH_WORKERS`), and the p99 is autocannon's.
 */
const WORKERS = Number(process.env["BENCH_WORKERS"] ?? (SEPARATE_PROCESSES ? 0 : 1))

type ServerKind =
  | "paykit-memory" | "paykit-memory-constant-create" | "bare-memory" | "paykit-pglite" | "bare-pglite"
  | "paykit-pglite-started" | "bare-pglite-file" | "bare-pglite-file-named" | "paykit-postgres-started" | "bare-postgres"
  | "paykit-npm-start" | "paykit-npm-start-unlogged"
/** A kind and how many processes serve it (one port; `node:cluster` beyond one). */
type ServerSpec = `${ServerKind}:${number}`
interface Running {
  readonly url: string
  readonly headers: Record<string, string>
  readonly outboundBody: string
  /** A creditor of the token's organisation: `{creditor}` in a case's path. */
  readonly creditor: string
  readonly close: () => Promise<void>
}

const here = dirname(fileURLToPath(import.meta.url))
const inChildProcess = (kind: ServerSpec): Promise<Running> =>
  new Promise((resolve, reject) => {
    // The request log (on in the `npm start` cases) writes a line per request to stdout: /dev/null here.
    const child = fork(join(here, "support", "http-server-process.ts"), [kind], { execArgv: process.execArgv, stdio: ["inherit", "ignore", "inherit", "ipc"] })
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)))
    child.once("message", (message) => {
      const m = message as Omit<Running, "close">
      child.removeAllListeners("exit")
      resolve({ ...m, close: () => new Promise<void>((done) => {
        child.once("exit", () => done())
        child.send("close")
      }) })
    })
  })
const start = async (spec: ServerSpec): Promise<Running> => {
  const [kind, processes] = spec.split(":") as [ServerKind, string]
  if (SEPARATE_PROCESSES || processes !== "1") return inChildProcess(spec)
  return (await import("./support/http-servers.ts")).startServer(kind)
}

// --- runs ---------------------------------------------------------------------------------------
interface Pair {
  readonly paykit: Running
  readonly bare: Running
}
interface Case {
  readonly key: string
  readonly name: string
  readonly path: string
  /** POSTs the server's own outbound payment body, or `body` when given. */
  readonly post?: true
  readonly body?: string
  readonly paykit: ServerKind
  readonly bare: ServerKind
  /** How many processes serve each side (default 1). */
  readonly processes?: number
}
const run = (server: Running, c: Case) =>
  new Promise<{ rps: number; p99: number; errors: number; non2xx: number }>((resolve, reject) => {
    const base = { url: `${server.url}${c.path.replace("{creditor}", server.creditor)}`, connections: CONNECTIONS, duration: DURATION_S, ...(WORKERS > 0 ? { workers: WORKERS } : {}) }
    const options = c.post === undefined
      ? { ...base, headers: server.headers }
      : { ...base, method: "POST", body: c.body ?? server.outboundBody, headers: { ...server.headers, "content-type": "application/json" } }
    const latencies: Array<number> = []
    const instance = autocannon(options, (err, result) => {
      if (err) return reject(err)
      latencies.sort((a, b) => a - b)
      const p99 = latencies.length === 0 ? result.latency.p99 : latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? Number.NaN
      resolve({ rps: result.requests.average, p99, errors: result.errors, non2xx: result.non2xx })
    })
    // Each connection's first response is left out of the p99: it carries the connection's setup,
    // and with 50 connections opened at once the n-th waits behind the n-1 before it (docs/benchmarks.md,
    // "Steadier figures, and cheaper rows").
    const connected = new WeakSet<object>()
    if (WORKERS === 0) {
      instance.on("response", (client, _status, _bytes, ms) => {
        if (typeof client !== "object" || client === null || connected.has(client)) return void latencies.push(ms)
        connected.add(client)
      })
    }
  })

const memory = { paykit: "paykit-memory", bare: "bare-memory" } as const
const allCases: ReadonlyArray<Case> = [
  { key: "payout", name: "GET /payouts/{id}", path: "/payouts/PO000000000100", ...memory },
  { key: "outbound", name: "POST /outbound_payments", path: "/outbound_payments", post: true, ...memory },
  // The same request with the engine's creation replaced by a constant answer: what the HTTP
  // layer (dispatcher, gateway, body, response) costs on its own, so the rest of the gap above is
  // the engine's.
  {
    key: "outbound-constant",
    name: "POST /outbound_payments, constant creation (diagnostic, no target)",
    path: "/outbound_payments",
    post: true,
    paykit: "paykit-memory-constant-create",
    bare: "bare-memory"
  },
  { key: "creditor", name: "GET /creditors/{id}", path: "/creditors/CR000000000100", ...memory },
  { key: "list", name: "GET /creditors?limit=50", path: "/creditors?limit=50", ...memory },
  { key: "pglite", name: "GET /payouts/{id}, PGlite (whole server)", path: "/payouts/PO000000000100", paykit: "paykit-pglite", bare: "bare-pglite" },
  // A creation through the whole server on PGlite against the bare server writing the same rows.
  {
    key: "pglite-post",
    name: "POST /outbound_payments, PGlite (whole server)",
    path: "/outbound_payments",
    post: true,
    paykit: "paykit-pglite",
    bare: "bare-pglite"
  },
  // The server as users start it (issue 17, finding 9): `npm start`'s composition, PGlite on a
  // directory, the request log on; the bare peer's PGlite on a directory too.
  {
    key: "started",
    name: "GET /payouts/{id}, as `npm start` runs it (PGlite on a directory, request log on)",
    path: "/payouts/PO000000000100",
    paykit: "paykit-pglite-started",
    bare: "bare-pglite-file"
  },
  // `npm start` itself: its entry point in a process of its own, configured by the
  // environment, its JSON log a pipe read to the end, as an operator runs it.
  {
    key: "npm-start",
    name: "GET /creditors/{id}, `npm start` itself (its process, worker, pump, JSON log on a pipe)",
    path: "/creditors/{creditor}",
    paykit: "paykit-npm-start",
    bare: "bare-pglite-file"
  },
  // The same against the bare server sending named statements, as paykit's PGlite client does:
  // what paykit's own code costs per request, the statements' cost alike on both sides.
  {
    key: "npm-start-named",
    name: "GET /creditors/{id}, `npm start` itself, against a bare server with named statements",
    path: "/creditors/{creditor}",
    paykit: "paykit-npm-start",
    bare: "bare-pglite-file-named"
  },
  // The stored request log's cost (issue 46): `npm start` itself with the log on (its default)
  // against the same with `PAYKIT_REQUEST_LOG=off`, a GET and a POST; in these rows the "bare"
  // side is the server without the log.
  {
    key: "request-log-get",
    name: "GET /creditors/{id}, `npm start`, request log on (peer: PAYKIT_REQUEST_LOG=off)",
    path: "/creditors/{creditor}",
    paykit: "paykit-npm-start",
    bare: "paykit-npm-start-unlogged"
  },
  {
    key: "request-log-post",
    name: "POST /customers, `npm start`, request log on (peer: PAYKIT_REQUEST_LOG=off)",
    path: "/customers",
    post: true,
    body: JSON.stringify({ customers: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } }),
    paykit: "paykit-npm-start",
    bare: "paykit-npm-start-unlogged"
  },
  // PostgreSQL (DATABASE_URL), the server as `npm start` composes it, one process and three.
  { key: "postgres", name: "GET /payouts/{id}, PostgreSQL, 1 process", path: "/payouts/PO000000000100", paykit: "paykit-postgres-started", bare: "bare-postgres" },
  {
    key: "postgres3",
    name: "GET /payouts/{id}, PostgreSQL, 3 processes each side",
    path: "/payouts/PO000000000100",
    paykit: "paykit-postgres-started",
    bare: "bare-postgres",
    processes: 3
  }
]
const chosen = (process.env["BENCH_CASES"] ?? "").split(",").filter((k) => k !== "")
// The PostgreSQL cases run when DATABASE_URL names a database.
const available = allCases.filter((c) => !c.key.startsWith("postgres") || (process.env["DATABASE_URL"] ?? "") !== "")
const cases = chosen.length === 0 ? available : available.filter((c) => chosen.includes(c.key))
const rows: Array<string> = []
const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
// One server per kind and process count, shared by the cases that name it, started when the first of them runs.
const servers = new Map<ServerSpec, Running>()
const serverOf = async (spec: ServerSpec): Promise<Running> => {
  const running = servers.get(spec) ?? await start(spec)
  servers.set(spec, running)
  return running
}
const pairFor = async (c: Case): Promise<Pair> => ({
  paykit: await serverOf(`${c.paykit}:${c.processes ?? 1}`),
  bare: await serverOf(`${c.bare}:${c.processes ?? 1}`)
})
for (const c of cases) {
  const pair = await pairFor(c)
  await run(pair.paykit, c) // warm-up (JIT), not reported
  await run(pair.bare, c)
  const ps: Array<{ rps: number; p99: number }> = []
  const bs: Array<{ rps: number; p99: number }> = []
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating the sides spreads the machine's other load over both.
    const p = await run(pair.paykit, c)
    const b = await run(pair.bare, c)
    if (p.non2xx > 0 || b.non2xx > 0 || p.errors > 0 || b.errors > 0) throw new Error(`non-2xx or errors in ${c.name}: ${JSON.stringify({ p, b })}`)
    ps.push(p)
    bs.push(b)
  }
  const pRps = median(ps.map((x) => x.rps))
  const bRps = median(bs.map((x) => x.rps))
  const pP99 = median(ps.map((x) => x.p99))
  const bP99 = median(bs.map((x) => x.p99))
  const rounds = ps.map((p, i) => `${((p.rps / (bs[i]?.rps ?? Number.NaN)) * 100).toFixed(0)}%`).join(" ")
  rows.push(`| ${c.name} | ${Math.round(pRps)} | ${Math.round(bRps)} | ${((pRps / bRps) * 100).toFixed(0)}% (${rounds}) | ${pP99.toFixed(2)} ms | ${bP99.toFixed(2)} ms | ${(pP99 / bP99).toFixed(2)}x |`)
}
await Promise.all([...servers.values()].map((server) => server.close()))
const where = SEPARATE_PROCESSES ? "each server in a process of its own" : "both servers in this process"
const load = WORKERS > 0 ? `in ${WORKERS} worker thread(s)` : "on this process's thread"
console.log(`${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s per side (medians), ${where}, autocannon ${load}, Node ${process.version}\n`)
console.log("| endpoint | paykit req/s | bare node:http req/s | throughput ratio (target >= 40% in memory, >= 70% on PGlite; per round) | paykit p99 | bare p99 | p99 ratio (target <= 1.5x) |")
console.log("|---|---|---|---|---|---|---|")
for (const r of rows) console.log(r)
