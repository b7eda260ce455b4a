/**
 * The stored request log's cost as CPU a request, beside `http.bench.ts`'s throughput: on a
 * machine shared with other work, a server's rate follows the other work as much as its own, and
 * single rounds of the throughput ratio swing by tens of points. What the server process itself
 * spent (its threads' user and system time, from `/proc/<pid>/stat`, so Linux only) divided by
 * the requests it answered moves far less.
 *
 *   npm run bench -- request-log-cpu
 *
 * `npm start` itself twice, as `http.bench.ts`'s `request-log-*` cases start it: the log on (its
 * default) and `PAYKIT_REQUEST_LOG=off`, alternating rounds of `GET /creditors/{id}` with 50
 * connections (`REQUEST_LOG_CPU_POST=1`: `POST /customers`). Each round waits for the log's
 * flush of its last requests before reading the time. `REQUEST_LOG_CPU_ROUNDS` (5) and
 * `REQUEST_LOG_CPU_SECONDS` (5).
 */
import { readdirSync, readFileSync } from "node:fs"
import { type BenchServer, npmStarted } from "./support/http-servers.ts"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

interface AutocannonResult {
  readonly requests: { readonly total: number; readonly average: number }
  readonly non2xx: number
  readonly errors: number
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string>; method?: string; body?: string },
  done: (err: unknown, result: AutocannonResult) => void
) => unknown
const autocannonSpecifier: string = "autocannon"
const autocannon = ((await import(autocannonSpecifier)) as { default: Autocannon }).default

const ROUNDS = Number(process.env["REQUEST_LOG_CPU_ROUNDS"] ?? 5)
const SECONDS = Number(process.env["REQUEST_LOG_CPU_SECONDS"] ?? 5)
const POST = process.env["REQUEST_LOG_CPU_POST"] === "1"
/** The kernel's clock ticks a second (`getconf CLK_TCK`, 100 on Linux). */
const TICK_US = 10_000
/** The log's writer stores a batch up to 200 ms after its requests. */
const FLUSH_WAIT_MS = 500

/** The process's CPU time in ticks: the main thread's, and every other thread's (garbage collection's helpers, the compiler's). */
const cpuTicks = (pid: number): { readonly main: number; readonly others: number } => {
  let main = 0
  let others = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const ticks = Number(fields[11]) + Number(fields[12])
    if (task === String(pid)) main += ticks
    else others += ticks
  }
  return { main, others }
}

interface Side {
  readonly name: string
  readonly server: BenchServer
  readonly pid: number
  readonly perRequest: Array<{ readonly main: number; readonly all: number; readonly rps: number }>
}

const start = async (log: "on" | "off"): Promise<Side> => {
  const server = await npmStarted(log)
  if (server.pid === undefined) throw new Error("npm start's server has no process id")
  return { name: `log ${log}`, server, pid: server.pid, perRequest: [] }
}

const body = JSON.stringify({ customers: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } })
const load = (side: Side, seconds: number) =>
  new Promise<AutocannonResult>((resolve, reject) => {
    const server = side.server
    const options = POST
      ? { url: `${server.url}/customers`, method: "POST", body, headers: { ...server.headers, "content-type": "application/json" } }
      : { url: `${server.url}/creditors/${server.creditor}`, headers: server.headers }
    autocannon({ ...options, connections: 50, duration: seconds }, (err, result) => err ? reject(err) : resolve(result))
  })

const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

const sides = [await start("on"), await start("off")] as const
for (const side of sides) await load(side, 3) // warm-up (JIT), not reported
for (let round = 0; round < ROUNDS; round++) {
  for (const side of sides) {
    const before = cpuTicks(side.pid)
    const result = await load(side, SECONDS)
    await new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS))
    const after = cpuTicks(side.pid)
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`non-2xx or errors with the ${side.name}`)
    const n = result.requests.total
    const main = ((after.main - before.main) * TICK_US) / n
    side.perRequest.push({ main, all: main + ((after.others - before.others) * TICK_US) / n, rps: result.requests.average })
  }
}
await Promise.all(sides.map((side) => side.server.close()))

const [on, off] = sides
const ratio = (key: "main" | "all") => (median(off.perRequest.map((r) => r[key])) / median(on.perRequest.map((r) => r[key])) * 100).toFixed(0)
const rounds = on.perRequest.map((r, i) => `${(((off.perRequest[i]?.all ?? Number.NaN) / r.all) * 100).toFixed(0)}%`).join(" ")
console.log(`${POST ? "POST /customers" : "GET /creditors/{id}"}, 50 connections, ${ROUNDS} alternating rounds of ${SECONDS} s (medians), Node ${process.version}\n`)
console.log("| server | CPU µs a request (all threads) | main thread | req/s |")
console.log("|---|---|---|---|")
for (const side of sides) {
  console.log(`| ${side.name} | ${median(side.perRequest.map((r) => r.all)).toFixed(0)} | ${median(side.perRequest.map((r) => r.main)).toFixed(0)} | ${median(side.perRequest.map((r) => r.rps)).toFixed(0)} |`)
}
console.log(`\nCPU a request, log off against on: ${ratio("all")}% (rounds ${rounds}); main thread ${ratio("main")}%`)
