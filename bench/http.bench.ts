/**
 * HTTP throughput and tail latency: the paykit API (effect/http-api, the full gateway: version
 * header, bearer token hashed and looked up, organisation scoping, request id, JSON envelope)
 * against a bare `node:http` server doing the same work by hand, in the same process and run,
 * both over in-memory data, driven by autocannon with 50 connections.
 *
 *   npx tsx bench/http.bench.ts          (or `npm run bench http`)
 *
 * Endpoints: `GET /payouts/{id}` and `POST /outbound_payments` (the two the spec's targets name),
 * `GET /creditors/{id}` and `GET /creditors?limit=50`. `BENCH_CASES=payout,outbound` picks cases.
 *
 * Case `pglite`: `GET /payouts/{id}` through the whole server of `@paykit/server` (sandbox mode,
 * SQL access tokens, the engine on `@paykit/store-sql` over an in-memory PGlite), against a bare
 * `node:http` server on a PGlite instance of its own with the same tables and rows, doing by hand
 * what the server's request does in SQL: the token looked up by its SHA-256, then the payout read
 * by (organisation, type, id), the row's JSON answered in its envelope.
 *
 * The outbound payment POSTs carry no `Idempotency-Key` (autocannon repeats one request, which a
 * key would turn into replays), and both servers count them against a per-organisation window
 * whose limit is raised past the run's volume: the spec's 300 a minute would turn the run into 429s.
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
  options: { url: string; connections: number; duration: number; headers: Record<string, string>; method?: string; body?: string; workers?: number },
  done: (err: unknown, result: AutocannonResult) => void
) => unknown
const autocannonSpecifier: string = "autocannon"
const autocannon = ((await import(autocannonSpecifier)) as { default: Autocannon }).default
const { Effect, Layer, ManagedRuntime } = await import("effect")
const engine = await import("@paykit/engine")
const http = await import("@paykit/http")
const { Option, Redacted } = await import("effect")

const ORGANISATION = "OR_bench"
const CONNECTIONS = 50
const DURATION_S = Number(process.env["BENCH_SECONDS"] ?? 4)
/** Paykit and bare runs alternate this many times; the table gives each side's median. */
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3)
/**
 * autocannon in a worker thread (the default) leaves the servers' thread to the servers; with
 * `BENCH_WORKERS=0` it shares their event loop, as the first version of this benchmark did.
 */
const WORKERS = Number(process.env["BENCH_WORKERS"] ?? 1)
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

const payout = (n: number) => ({
  id: `PO${String(n).padStart(12, "0")}`,
  created_at: "2026-11-20T06:00:00.000Z",
  amount: 12_345, deducted_fees: 120, currency: "GBP", reference: `PAYKIT-${n}`, status: "paid", payout_type: "merchant",
  arrival_date: "2026-11-21",
  fx: { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null },
  tax_currency: null, metadata: {},
  links: { creditor: "CR000000000001", creditor_bank_account: "BA000000000001" }
}) as const

// --- paykit -----------------------------------------------------------------------------------
// The in-memory limiter's work (one window per organisation and group), with a limit past the run's volume.
const unlimitedRateLimiter = Layer.sync(http.RateLimiter, () => {
  const windows = new Map<string, { readonly start: number; readonly count: number }>()
  return http.RateLimiter.of({
    hit: (organisation, group, nowMillis) =>
      Effect.sync(() => {
        const key = `${organisation}\u0000${group.name}`
        const decision = http.consume(windows.get(key), nowMillis, Number.MAX_SAFE_INTEGER)
        windows.set(key, decision.window)
        return decision
      })
  })
})
const layer = http.serveHttpApp(http.makeHttpApp(), { port: 0, host: "127.0.0.1" }).pipe(
  Layer.provideMerge(Layer.mergeAll(http.AccessTokens.layerMemory, http.IdempotencyStore.layerMemory, unlimitedRateLimiter)),
  Layer.provideMerge(http.inMemoryApiEngine()),
  Layer.provide(Layer.succeed(http.RequestLog, http.silentRequestLog))
)
const runtime = ManagedRuntime.make(layer)
const paykitUrl = await runtime.runPromise(http.serverUrl)
const token = await runtime.runPromise(http.issueAccessToken({ id: "AT_bench", organisation: ORGANISATION, scope: "read_write" }))
await runtime.runPromise(Effect.gen(function*() {
  const repo = yield* engine.CreditorRepository
  for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(repo.insert(ORGANISATION, creditor(n) as never))
  const payouts = yield* engine.PayoutRepository
  for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(payouts.insert(ORGANISATION, payout(n) as never))
}))
// The payer of outbound payments: a customer's GBP account (the creditor is named in each request).
const recipientId = await runtime.runPromise(Effect.gen(function*() {
  const customers = yield* engine.Customers
  const customer = yield* customers.create(ORGANISATION, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
  const account = yield* customers.createBankAccount(ORGANISATION, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  })
  return account.id
}).pipe(Effect.orDie))

// --- bare node:http doing the same work -------------------------------------------------------
const tokenHashes = new Map([[createHash("sha256").update(token).digest("hex"), ORGANISATION]])
const store = new Map<string, Map<string, ReturnType<typeof creditor>>>([[ORGANISATION, new Map()]])
const newestFirst: Array<ReturnType<typeof creditor>> = []
const payoutStore = new Map<string, Map<string, ReturnType<typeof payout>>>([[ORGANISATION, new Map()]])
for (let n = SEEDED; n >= 1; n--) {
  store.get(ORGANISATION)?.set(creditor(n).id, creditor(n))
  payoutStore.get(ORGANISATION)?.set(payout(n).id, payout(n))
  newestFirst.push(creditor(n))
}
const recipients = new Map([[recipientId, { currency: "GBP", enabled: true }]])
const outbound = new Map<string, unknown>()
const eventLog: Array<unknown> = []
const windows = new Map<string, { start: number; count: number }>()
let outboundCounter = 0
const OUTBOUND_SCHEMES = ["faster_payments"]
/** The bare server's outbound payment: the body checked by hand, the recipient looked up, stored. */
const createOutbound = (organisation: string, text: string): { status: number; body: unknown } => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { status: 400, body: { error: { code: 400, type: "invalid_api_usage", message: "invalid_document_structure" } } }
  }
  const input = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["outbound_payments"] : undefined
  if (typeof input !== "object" || input === null) return { status: 422, body: { error: { code: 422, type: "validation_failed" } } }
  const r = input as { amount?: unknown; scheme?: unknown; reference?: unknown; description?: unknown; links?: { recipient_bank_account?: unknown; creditor?: unknown } }
  const amount = r.amount
  const recipient = typeof r.links?.recipient_bank_account === "string" ? recipients.get(r.links.recipient_bank_account) : undefined
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0 || typeof r.scheme !== "string" ||
    !OUTBOUND_SCHEMES.includes(r.scheme) || recipient === undefined || recipient.currency !== "GBP" || !recipient.enabled ||
    (r.links?.creditor !== undefined && !store.get(organisation)?.has(String(r.links.creditor)))) {
    return { status: 422, body: { error: { code: 422, type: "validation_failed" } } }
  }
  const id = `OUT${String(++outboundCounter).padStart(11, "0")}`
  const payment = {
    id, created_at: new Date().toISOString(), amount, currency: "GBP", scheme: r.scheme, status: "verifying",
    reference: typeof r.reference === "string" ? r.reference : null, description: null, execution_date: null,
    is_withdrawal: false, metadata: {}, verifications: { recipient_bank_account_holder_verification: null },
    links: { creditor: String(r.links?.creditor ?? ""), recipient_bank_account: String(r.links?.recipient_bank_account) }
  }
  outbound.set(`${organisation}/${id}`, payment)
  eventLog.push({ id: `EV${outboundCounter}`, created_at: payment.created_at, resource_type: "outbound_payments", action: "created", links: { outbound_payment: id } })
  return { status: 201, body: { outbound_payments: payment } }
}
const bare = createServer((req, res) => {
  const requestId = randomUUID()
  const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { ...extra, "content-type": "application/json", "content-length": Buffer.byteLength(text), "x-request-id": requestId })
    res.end(text)
  }
  const error = (status: number, reason: string) =>
    send(status, { error: { code: status, type: "invalid_api_usage", message: reason, errors: [{ reason, message: reason }], documentation_url: "", request_id: requestId } })
  if (req.headers["gocardless-version"] !== "2015-07-06") return error(400, "version_not_found")
  const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")
  const organisation = auth?.[1] === undefined ? undefined : tokenHashes.get(createHash("sha256").update(auth[1]).digest("hex"))
  if (organisation === undefined) return error(401, "access_token_not_found")
  const url = new URL(req.url ?? "/", "http://x")
  if (url.pathname === "/outbound_payments" && req.method === "POST") {
    const now = Date.now()
    const key = `${organisation}\u0000outbound_payment_writes`
    const window = windows.get(key)
    const current = window === undefined || now - window.start >= 60_000 ? { start: now - (now % 60_000), count: 0 } : window
    windows.set(key, { start: current.start, count: current.count + 1 })
    const limitHeaders = {
      "ratelimit-limit": String(Number.MAX_SAFE_INTEGER),
      "ratelimit-remaining": String(Number.MAX_SAFE_INTEGER - current.count - 1),
      "ratelimit-reset": String(Math.ceil((current.start + 60_000 - now) / 1000))
    }
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (!/^application\/json/.test(req.headers["content-type"] ?? "")) return error(400, "invalid_content_type")
      const outcome = createOutbound(organisation, Buffer.concat(chunks).toString("utf8"))
      const id = (outcome.body as { outbound_payments?: { id: string } }).outbound_payments?.id
      send(outcome.status, outcome.body, id === undefined ? limitHeaders : { ...limitHeaders, location: `/outbound_payments/${id}` })
    })
    return
  }
  const payoutMatch = /^\/payouts\/([^/]+)$/.exec(url.pathname)
  if (payoutMatch?.[1] !== undefined) {
    const found = payoutStore.get(organisation)?.get(payoutMatch[1])
    return found === undefined ? error(404, "resource_not_found") : send(200, { payouts: found })
  }
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

// --- PGlite: the whole server against a bare server on PGlite -----------------------------------
const closers: Array<() => Promise<void>> = []
const PGLITE_TOKEN = "paykit_bench_pglite_token_0001"

const startPglitePair = async (): Promise<Servers> => {
  const server = await import("@paykit/server")
  const store = await import("@paykit/store-sql")
  const { PGlite } = await import("@electric-sql/pglite")
  const config = {
    port: 0,
    host: "127.0.0.1",
    mode: "sandbox" as const,
    database: { _tag: "Pglite" as const, dataDir: undefined },
    sandboxToken: Option.some(Redacted.make(PGLITE_TOKEN))
  }
  const silent = Layer.mergeAll(Layer.succeed(http.RequestLog, http.silentRequestLog), Layer.succeed(server.ServerLog, () => undefined))
  const paykit = ManagedRuntime.make(server.makeServer(config).pipe(Layer.provide(silent)))
  const url = await paykit.runPromise(http.serverUrl)
  const organisation = (await paykit.runPromise(Effect.gen(function*() { return yield* server.Bootstrap }))).organisation.id
  const seedPayouts = Effect.gen(function*() {
    const payouts = yield* engine.PayoutRepository
    for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(payouts.insert(organisation, payout(n) as never))
  })
  // The server's context holds the repositories; its type names only what it offers embedders.
  await paykit.runPromise(seedPayouts as unknown as Parameters<typeof paykit.runPromise>[0])

  // The bare side: its own PGlite, migrated with the same tables, holding the same rows.
  const db = await PGlite.create()
  const tables = Layer.mergeAll(engine.RepositoriesFromBackend, server.SqlAccessTokens, server.Organisations.layerSql).pipe(
    Layer.provideMerge(Layer.effectDiscard(server.migrateServer)),
    Layer.provideMerge(store.SqlStorage),
    Layer.provideMerge(store.PgliteClient.layer({ instance: db }))
  )
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(tables)
    yield* Effect.provideContext(Effect.gen(function*() {
      yield* (yield* server.Organisations).insert({ id: organisation, name: "Bench", environment: "sandbox" })
      yield* (yield* http.AccessTokens).insert({ id: "AT_bare", organisation, scope: "read_write", tokenHash: http.hashToken(PGLITE_TOKEN), status: "active" })
      yield* seedPayouts
    }), context)
  })).pipe(Effect.orDie))
  const tokenSql = "SELECT organisation_id, status FROM access_tokens WHERE token_hash = $1"
  const payoutSql = "SELECT version, data FROM resources WHERE organisation_id = $1 AND resource_type = 'payouts' AND id = $2"
  const bareDb = createServer(async (req, res) => {
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
    if (auth?.[1] === undefined) return error(401, "access_token_not_found")
    const tokens = await db.query<{ organisation_id: string; status: string }>(tokenSql, [createHash("sha256").update(auth[1]).digest("hex")])
    const caller = tokens.rows[0]
    if (caller === undefined || caller.status !== "active") return error(401, "access_token_not_found")
    const match = /^\/payouts\/([^/?]+)$/.exec(req.url ?? "")
    if (match?.[1] === undefined) return error(404, "path_not_found")
    const rows = await db.query<{ version: number; data: unknown }>(payoutSql, [caller.organisation_id, match[1]])
    const row = rows.rows[0]
    return row === undefined ? error(404, "resource_not_found") : send(200, { payouts: row.data })
  })
  await new Promise<void>((resolve) => bareDb.listen(0, "127.0.0.1", resolve))
  closers.push(async () => {
    bareDb.close()
    await db.close()
    await paykit.dispose()
  })
  return {
    paykit: url,
    bare: `http://127.0.0.1:${(bareDb.address() as AddressInfo).port}`,
    headers: { authorization: `Bearer ${PGLITE_TOKEN}`, "gocardless-version": "2015-07-06" }
  }
}

// --- runs ---------------------------------------------------------------------------------------
const headers = { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" }
interface Servers {
  readonly paykit: string
  readonly bare: string
  readonly headers: Record<string, string>
}
interface Case {
  readonly key: string
  readonly name: string
  readonly path: string
  readonly body?: string
  /** The two servers of the case; the in-memory pair unless given. */
  readonly servers?: () => Promise<Servers>
}
const run = (url: string, c: Case, caseHeaders: Record<string, string> = headers) =>
  new Promise<{ rps: number; p99: number; errors: number; non2xx: number }>((resolve, reject) => {
    const base = { url, connections: CONNECTIONS, duration: DURATION_S, ...(WORKERS > 0 ? { workers: WORKERS } : {}) }
    const options = c.body === undefined
      ? { ...base, headers: caseHeaders }
      : { ...base, method: "POST", body: c.body, headers: { ...caseHeaders, "content-type": "application/json" } }
    autocannon(options, (err, result) => {
      if (err) return reject(err)
      resolve({ rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx })
    })
  })

const outboundBody = JSON.stringify({
  outbound_payments: { amount: 2500, scheme: "faster_payments", reference: "INV 42", links: { creditor: "CR000000000001", recipient_bank_account: recipientId } }
})
const allCases: ReadonlyArray<Case> = [
  { key: "payout", name: "GET /payouts/{id}", path: "/payouts/PO000000000100" },
  { key: "outbound", name: "POST /outbound_payments", path: "/outbound_payments", body: outboundBody },
  { key: "creditor", name: "GET /creditors/{id}", path: "/creditors/CR000000000100" },
  { key: "list", name: "GET /creditors?limit=50", path: "/creditors?limit=50" },
  { key: "pglite", name: "GET /payouts/{id}, PGlite (whole server)", path: "/payouts/PO000000000100", servers: () => startPglitePair() }
]
const chosen = (process.env["BENCH_CASES"] ?? "").split(",").filter((k) => k !== "")
const cases = chosen.length === 0 ? allCases : allCases.filter((c) => chosen.includes(c.key))
const rows: Array<string> = []
const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
const memoryServers: Servers = { paykit: paykitUrl, bare: bareUrl, headers }
for (const c of cases) {
  const servers = c.servers === undefined ? memoryServers : await c.servers()
  const side = (url: string) => run(`${url}${c.path}`, c, servers.headers)
  await side(servers.paykit) // warm-up (JIT), not reported
  await side(servers.bare)
  const ps: Array<{ rps: number; p99: number }> = []
  const bs: Array<{ rps: number; p99: number }> = []
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating the sides spreads the machine's other load over both.
    const p = await side(servers.paykit)
    const b = await side(servers.bare)
    if (p.non2xx > 0 || b.non2xx > 0 || p.errors > 0 || b.errors > 0) throw new Error(`non-2xx or errors in ${c.name}: ${JSON.stringify({ p, b })}`)
    ps.push(p)
    bs.push(b)
  }
  const pRps = median(ps.map((x) => x.rps))
  const bRps = median(bs.map((x) => x.rps))
  const pP99 = median(ps.map((x) => x.p99))
  const bP99 = median(bs.map((x) => x.p99))
  const rounds = ps.map((p, i) => `${((p.rps / (bs[i]?.rps ?? Number.NaN)) * 100).toFixed(0)}%`).join(" ")
  rows.push(`| ${c.name} | ${Math.round(pRps)} | ${Math.round(bRps)} | ${((pRps / bRps) * 100).toFixed(0)}% (${rounds}) | ${pP99} ms | ${bP99} ms | ${(pP99 / Math.max(1, bP99)).toFixed(2)}x |`)
}
for (const close of closers) await close()
console.log(`${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s per side (medians), autocannon ${WORKERS > 0 ? `in ${WORKERS} worker thread(s)` : "on the servers' thread"}, Node ${process.version}\n`)
console.log("| endpoint | paykit req/s | bare node:http req/s | throughput ratio (target >= 40% in memory, >= 70% on PGlite; per round) | paykit p99 | bare p99 | p99 ratio (target <= 1.5x) |")
console.log("|---|---|---|---|---|---|---|")
for (const r of rows) console.log(r)
bare.close()
await runtime.dispose()
