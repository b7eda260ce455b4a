/**
 * HTTP throughput and tail latency: the paykit API (effect/http-api, the full gateway: version
 * header, bearer token hashed and looked up, organisation scoping, request id, JSON envelope)
 * against a bare `node:http` server doing the same work by hand, in the same process and run,
 * both over in-memory data, driven by autocannon with 50 connections.
 *
 *   npx tsx bench/http.bench.ts          (or `npm run bench http`)
 *
 * Endpoints: `GET /creditors/{id}` and `GET /creditors?limit=50` (payouts and outbound payments
 * are not served yet, see docs/http.md; the spec's targets name those).
 */
import { spawnSync } from "node:child_process"
import { createHash, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

if (!process.execArgv.some((a) => a.includes("@paykit/source"))) {
  const script = process.argv[1] ?? ""
  const r = spawnSync(process.execPath, [...process.execArgv, "--conditions=@paykit/source", script, ...process.argv.slice(2)], { stdio: "inherit" })
  process.exit(r.status ?? 1)
}

// autocannon ships no types; this is the part of its API used here.
interface AutocannonResult {
  readonly requests: { readonly average: number }
  readonly latency: { readonly p99: number }
  readonly errors: number
  readonly non2xx: number
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (err: unknown, result: AutocannonResult) => void
) => unknown
const autocannonSpecifier: string = "autocannon"
const autocannon = ((await import(autocannonSpecifier)) as { default: Autocannon }).default
const { Effect, Layer, ManagedRuntime } = await import("effect")
const engine = await import("@paykit/engine")
const http = await import("@paykit/http")

const ORGANISATION = "OR_bench"
const CONNECTIONS = 50
const DURATION_S = Number(process.env["BENCH_SECONDS"] ?? 8)
const SEEDED = 200

const creditor = (n: number) => ({
  id: `CR${String(n).padStart(12, "0")}`,
  created_at: "2026-11-21T10:00:00.000Z",
  name: `Creditor ${n}`,
  address_line1: null, address_line2: null, address_line3: null, city: "London", region: null, postal_code: null,
  country_code: "GB", creditor_type: "company", bank_reference_prefix: "PAYKIT", can_create_refunds: false, logo_url: null,
  verification_status: "successful", fx_payout_currency: null, mandate_imports_enabled: false,
  custom_payment_pages_enabled: false, merchant_responsible_for_notifications: false,
  links: {
    default_aud_payout_account: null, default_cad_payout_account: null, default_dkk_payout_account: null,
    default_eur_payout_account: null, default_gbp_payout_account: null, default_nzd_payout_account: null,
    default_sek_payout_account: null, default_usd_payout_account: null
  },
  scheme_identifiers: []
}) as const

// --- paykit -----------------------------------------------------------------------------------
const layer = http.serveHttpApp(http.makeHttpApp(), { port: 0, host: "127.0.0.1" }).pipe(
  Layer.provideMerge(Layer.mergeAll(http.AccessTokens.layerMemory, http.IdempotencyStore.layerMemory, http.RateLimiter.layerMemory)),
  Layer.provideMerge(http.inMemoryApiEngine()),
  Layer.provide(Layer.succeed(http.RequestLog, http.silentRequestLog))
)
const runtime = ManagedRuntime.make(layer)
const paykitUrl = await runtime.runPromise(http.serverUrl)
const token = await runtime.runPromise(http.issueAccessToken({ id: "AT_bench", organisation: ORGANISATION, scope: "read_write" }))
await runtime.runPromise(Effect.gen(function*() {
  const repo = yield* engine.CreditorRepository
  for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(repo.insert(ORGANISATION, creditor(n) as never))
}))

// --- bare node:http doing the same work -------------------------------------------------------
const tokenHashes = new Map([[createHash("sha256").update(token).digest("hex"), ORGANISATION]])
const store = new Map<string, Map<string, ReturnType<typeof creditor>>>([[ORGANISATION, new Map()]])
const newestFirst: Array<ReturnType<typeof creditor>> = []
for (let n = SEEDED; n >= 1; n--) {
  store.get(ORGANISATION)?.set(creditor(n).id, creditor(n))
  newestFirst.push(creditor(n))
}
const bare = createServer((req, res) => {
  const requestId = randomUUID()
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "x-request-id": requestId })
    res.end(text)
  }
  const error = (status: number, reason: string) =>
    send(status, { error: { code: status, type: "invalid_api_usage", message: reason, errors: [{ reason, message: reason }], documentation_url: "", request_id: requestId } })
  if (req.headers["gocardless-version"] !== "2015-07-06") return error(400, "version_not_found")
  const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")
  const organisation = auth?.[1] === undefined ? undefined : tokenHashes.get(createHash("sha256").update(auth[1]).digest("hex"))
  if (organisation === undefined) return error(401, "access_token_not_found")
  const url = new URL(req.url ?? "/", "http://x")
  const match = /^\/creditors\/([^/]+)$/.exec(url.pathname)
  if (match?.[1] !== undefined) {
    const found = store.get(organisation)?.get(match[1])
    return found === undefined ? error(404, "resource_not_found") : send(200, { creditors: found })
  }
  if (url.pathname === "/creditors") {
    const limit = Number(url.searchParams.get("limit") ?? 50)
    const items = newestFirst.slice(0, limit)
    return send(200, { creditors: items, meta: { cursors: { before: null, after: items[items.length - 1]?.id ?? null }, limit } })
  }
  return error(404, "path_not_found")
})
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve))
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`

// --- runs ---------------------------------------------------------------------------------------
const headers = { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" }
const run = (url: string) =>
  new Promise<{ rps: number; p99: number; errors: number; non2xx: number }>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers }, (err, result) => {
      if (err) return reject(err)
      resolve({ rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx })
    })
  })

const cases = [
  { name: "GET /creditors/{id}", path: "/creditors/CR000000000100" },
  { name: "GET /creditors?limit=50", path: "/creditors?limit=50" }
]
const rows: Array<string> = []
for (const c of cases) {
  await run(`${paykitUrl}${c.path}`) // warm-up (JIT), not reported
  const p = await run(`${paykitUrl}${c.path}`)
  const b = await run(`${bareUrl}${c.path}`)
  if (p.non2xx > 0 || b.non2xx > 0 || p.errors > 0 || b.errors > 0) throw new Error(`non-2xx or errors in ${c.name}: ${JSON.stringify({ p, b })}`)
  const ratio = p.rps / b.rps
  const p99ratio = p.p99 / Math.max(1, b.p99)
  rows.push(`| ${c.name} | ${Math.round(p.rps)} | ${Math.round(b.rps)} | ${(ratio * 100).toFixed(0)}% | ${p.p99} ms | ${b.p99} ms | ${p99ratio.toFixed(2)}x |`)
}
console.log(`${CONNECTIONS} connections, ${DURATION_S} s per run, Node ${process.version}\n`)
console.log("| endpoint | paykit req/s | bare node:http req/s | throughput ratio (target >= 40%) | paykit p99 | bare p99 | p99 ratio (target <= 1.5x) |")
console.log("|---|---|---|---|---|---|---|")
for (const r of rows) console.log(r)
bare.close()
await runtime.dispose()
