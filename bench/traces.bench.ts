/**
 * What tracing costs on the request path (issue 46): `npm start` itself (`main.ts` in a process of
 * its own, PGlite on a directory, worker, pump, JSON log on a pipe) with its spans exported over
 * OTLP/HTTP to a receiver in this process (`OTEL_EXPORTER_OTLP_ENDPOINT`, protobuf, the default
 * batch and delay: what an operator who sets one variable gets), against the same server without
 * the variable (no spans made at all), both with the request log on (the default), in the same run: `GET /creditors/{id}` (the sandbox
 * creditor), 50 connections, 5 alternating rounds of 4 s per side, medians.
 *
 *   npm run bench -- traces
 */
import { createServer } from "node:http"
import { npmStarted } from "./support/http-servers.ts"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number }
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly errors: number
  readonly non2xx: number
}
type Autocannon = (options: { url: string; connections: number; duration: number; headers: Record<string, string> }, done: (err: unknown, result: AutocannonResult) => void) => unknown
const autocannonSpecifier: string = "autocannon"
const autocannon = ((await import(autocannonSpecifier)) as { default: Autocannon }).default

const CONNECTIONS = 50
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 4)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5)

/** A collector that takes every export and counts its bytes. */
const received = { posts: 0, bytes: 0 }
const receiver = createServer((req, res) => {
  req.on("data", (chunk: Buffer) => void (received.bytes += chunk.length))
  req.on("end", () => {
    received.posts++
    res.writeHead(200, { "content-type": "application/x-protobuf" }).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const address = receiver.address()
if (typeof address !== "object" || address === null) throw new Error("no receiver address")

const traced = await npmStarted("on", { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}` })
const plain = await npmStarted("on")

const run = (server: typeof plain) =>
  new Promise<AutocannonResult>((resolve, reject) =>
    autocannon({ url: `${server.url}/creditors/${server.creditor}`, connections: CONNECTIONS, duration: SECONDS, headers: server.headers }, (err, result) => {
      if (err !== null && err !== undefined) return reject(err)
      if (result.errors > 0 || result.non2xx > 0) return reject(new Error(`errors or non-2xx: ${JSON.stringify(result)}`))
      resolve(result)
    }))
const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

await run(traced) // warm-up (JIT), not reported
await run(plain)
const sides = { traced: [] as Array<AutocannonResult>, plain: [] as Array<AutocannonResult> }
let tracedRequests = 0
for (let round = 0; round < ROUNDS; round++) {
  // Alternating the sides spreads the machine's other load over both.
  const t = await run(traced)
  sides.traced.push(t)
  tracedRequests += t.requests.total
  sides.plain.push(await run(plain))
}
await Promise.all([traced.close(), plain.close()])
receiver.close()

const rps = (side: ReadonlyArray<AutocannonResult>) => median(side.map((r) => r.requests.average))
const p99 = (side: ReadonlyArray<AutocannonResult>) => median(side.map((r) => r.latency.p99))
const perRound = sides.traced.map((t, i) => `${((t.requests.average / (sides.plain[i]?.requests.average ?? Number.NaN)) * 100).toFixed(0)}%`).join(" ")
console.log(`${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per side (medians), Node ${process.version}\n`)
console.log("| `npm start`, GET /creditors/{id} | req/s | p99 (autocannon, ms) |")
console.log("|---|---|---|")
console.log(`| traces exported (OTLP/HTTP protobuf to a local receiver) | ${Math.round(rps(sides.traced))} | ${p99(sides.traced)} |`)
console.log(`| no OTEL variable (no spans) | ${Math.round(rps(sides.plain))} | ${p99(sides.plain)} |`)
console.log(`\ntraced throughput against untraced: ${((rps(sides.traced) / rps(sides.plain)) * 100).toFixed(0)}% (per round: ${perRound})`)
console.log(`the receiver took ${received.posts} exports, ${(received.bytes / 1024).toFixed(0)} KiB: ${(received.bytes / Math.max(1, tracedRequests)).toFixed(0)} bytes a traced request (warm-up left out of the count, its spans not)`)
