/**
 * The servers `bench/http.bench.ts` measures, each started by `startServer(kind)`: the paykit API
 * and a bare `node:http` server doing the same work by hand, over in-memory data or over PGlite.
 * `http-server-process.ts` runs one of them in a process of its own.
 */
import { createHash, randomUUID } from "node:crypto"
import { spawn } from "node:child_process"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { OutboundPayment } from "@paykit/engine"
import type { Layer as LayerType } from "effect"
import type { SqlClient as SqlClientModule } from "effect/sql"

const { Effect, Layer, ManagedRuntime, Option, Redacted } = await import("effect")
const engine = await import("@paykit/engine")
const http = await import("@paykit/http")

export const SERVER_KINDS = [
  "paykit-memory", "paykit-memory-constant-create", "bare-memory", "paykit-pglite", "bare-pglite",
  "paykit-pglite-started", "bare-pglite-file", "paykit-postgres-started", "bare-postgres", "paykit-npm-start"
] as const
export type ServerKind = (typeof SERVER_KINDS)[number]

export interface BenchServer {
  readonly url: string
  readonly headers: Record<string, string>
  /** A valid `POST /outbound_payments` body for this server (its recipient's id is its own). */
  readonly outboundBody: string
  /** The id of a creditor of the token's organisation, for `GET /creditors/{id}`. */
  readonly creditor: string
  readonly close: () => Promise<void>
}

/** The creditor each seeded server answers `GET /creditors/{id}` for. */
const SEEDED_CREDITOR = "CR000000000100"

const ORGANISATION = "OR_bench"
const SEEDED = 200
const VERSION = { "gocardless-version": "2015-07-06" }

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


const outboundBodyFor = (recipient: string) =>
  JSON.stringify({
    outbound_payments: { amount: 2500, scheme: "faster_payments", reference: "INV 42", links: { creditor: "CR000000000001", recipient_bank_account: recipient } }
  })

const listen = async (server: ReturnType<typeof createServer>): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The bare servers' answers: the JSON body with its length and a request id, and the spec's error body. */
const sender = (res: ServerResponse, requestId: string) => {
  const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { ...extra, "content-type": "application/json", "content-length": Buffer.byteLength(text), "x-request-id": requestId })
    res.end(text)
  }
  const error = (status: number, reason: string) =>
    send(status, { error: { code: status, type: "invalid_api_usage", message: reason, errors: [{ reason, message: reason }], documentation_url: "", request_id: requestId } })
  return { send, error }
}

const bearerOf = (req: IncomingMessage): string | undefined => /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1]

// --- paykit in memory -----------------------------------------------------------------------------
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

/**
 * The API's handlers with `POST /outbound_payments` answering, for any valid body, the payment the
 * engine made for `constant` (decoded from the request as the real handler does, and serialised
 * again on every request): the whole HTTP path without the engine's creation.
 */
const withConstantCreate = (constant: { current: OutboundPayment | undefined }) =>
  Effect.map(http.paykitRoutes, (routes) =>
    routes.map((route) =>
      route.group !== "outbound_payments" || route.endpoint !== "create" ? route : {
        ...route,
        handler: http.createHandler("outbound_payments", engine.REQUEST_BODIES.outbound_payments.create, () =>
          constant.current === undefined ? Effect.die(new Error("the constant payment is made before the server takes requests")) : Effect.succeed(constant.current))
      }))

const paykitMemory = async (options: { readonly constantCreate: boolean }): Promise<BenchServer> => {
  const constant: { current: OutboundPayment | undefined } = { current: undefined }
  const app = options.constantCreate
    ? http.makeHttpAppWith(http.apiDispatcher(withConstantCreate(constant)))
    : http.makeHttpApp()
  const layer = http.serveHttpApp(app, { port: 0, host: "127.0.0.1" }).pipe(
    Layer.provideMerge(Layer.mergeAll(http.AccessTokens.layerMemory, http.IdempotencyStore.layerMemory, unlimitedRateLimiter)),
    Layer.provideMerge(http.inMemoryApiEngine()),
    Layer.provide(Layer.succeed(http.RequestLog, http.silentRequestLog))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(http.serverUrl)
  const token = await runtime.runPromise(http.issueAccessToken({ id: "AT_bench", organisation: ORGANISATION, scope: "read_write" }))
  await runtime.runPromise(Effect.gen(function*() {
    const repo = yield* engine.CreditorRepository
    for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(repo.insert(ORGANISATION, creditor(n) as never))
    const payouts = yield* engine.PayoutRepository
    for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(payouts.insert(ORGANISATION, payout(n) as never))
  }))
  // The payee of outbound payments: a customer's GBP account (the creditor is named in each request).
  const recipient = await runtime.runPromise(Effect.gen(function*() {
    const customers = yield* engine.Customers
    const customer = yield* customers.create(ORGANISATION, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
    const account = yield* customers.createBankAccount(ORGANISATION, {
      account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
    })
    return account.id
  }).pipe(Effect.orDie))
  const outboundBody = outboundBodyFor(recipient)
  if (options.constantCreate) {
    const input: unknown = (JSON.parse(outboundBody) as { outbound_payments: unknown }).outbound_payments
    const command = engine.decodeCommand(engine.OutboundPaymentCreateRequest, "outbound_payments")(input)
    constant.current = await runtime.runPromise(
      Effect.flatMap(Effect.zip(Effect.service(engine.OutboundPayments), command), ([o, c]) => o.create(ORGANISATION, c)).pipe(Effect.orDie)
    )
  }
  return { url, headers: { authorization: `Bearer ${token}`, ...VERSION }, outboundBody, creditor: SEEDED_CREDITOR, close: () => runtime.dispose() }
}

// --- bare node:http in memory, doing the same work ------------------------------------------------
const bareMemory = async (): Promise<BenchServer> => {
  const token = `bare_${randomUUID()}`
  const tokenHashes = new Map([[createHash("sha256").update(token).digest("hex"), ORGANISATION]])
  const store = new Map<string, Map<string, ReturnType<typeof creditor>>>([[ORGANISATION, new Map()]])
  const newestFirst: Array<ReturnType<typeof creditor>> = []
  const payoutStore = new Map<string, Map<string, ReturnType<typeof payout>>>([[ORGANISATION, new Map()]])
  for (let n = SEEDED; n >= 1; n--) {
    store.get(ORGANISATION)?.set(creditor(n).id, creditor(n))
    payoutStore.get(ORGANISATION)?.set(payout(n).id, payout(n))
    newestFirst.push(creditor(n))
  }
  const recipientId = "BA000000000001"
  const recipients = new Map([[recipientId, { currency: "GBP", enabled: true, account_holder_name: "Ada Lovelace", customer: "CU000000000001" }]])
  /** The creditors' payment accounts, opened by their first outbound payment (as the engine does). */
  const paymentAccounts = new Map<string, { readonly id: string; readonly account_balance: number }>()
  /** Confirmation of payee by hand: the sandbox's name rules (`SANDBOX_NAMES` of `@paykit/engine`). */
  const verify = (name: string) => {
    const lower = name.toLowerCase()
    return lower.includes("no match") ? { result: "no_match", actual_account_name: null }
      : lower.includes("unable to match") ? { result: "unable_to_match", actual_account_name: null }
      : lower.includes("partial match") ? { result: "partial_match", actual_account_name: name }
      : { result: "full_match", actual_account_name: null }
  }
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
    const creditorId = String(r.links?.creditor ?? "")
    const accountKey = `${organisation}/${creditorId}`
    if (!paymentAccounts.has(accountKey)) paymentAccounts.set(accountKey, { id: `BA${String(paymentAccounts.size + 1).padStart(12, "0")}`, account_balance: 0 })
    const id = `OUT${String(++outboundCounter).padStart(11, "0")}`
    const created_at = new Date().toISOString()
    // Created as verifying, verified at once, awaiting approval: the engine's two steps and two events.
    const payment = {
      id, created_at, amount, currency: "GBP", description: null, execution_date: null, is_withdrawal: false,
      reference: typeof r.reference === "string" ? r.reference : null, scheme: r.scheme, status: "pending_approval",
      verifications: { recipient_bank_account_holder_verification: { type: "confirmation_of_payee", ...verify(recipient.account_holder_name) } },
      metadata: {},
      links: { creditor: creditorId, recipient_bank_account: String(r.links?.recipient_bank_account), customer: recipient.customer }
    }
    outbound.set(`${organisation}/${id}`, payment)
    const links = { outbound_payment: id, creditor: creditorId, customer: recipient.customer }
    eventLog.push({ id: `EV${2 * outboundCounter - 1}`, created_at, resource_type: "outbound_payments", action: "created", links })
    eventLog.push({ id: `EV${2 * outboundCounter}`, created_at, resource_type: "outbound_payments", action: "set_to_pending_approval", links })
    return { status: 201, body: { outbound_payments: payment } }
  }
  const server = createServer((req, res) => {
    const { send, error } = sender(res, randomUUID())
    if (req.headers["gocardless-version"] !== "2015-07-06") return error(400, "version_not_found")
    const bearer = bearerOf(req)
    const organisation = bearer === undefined ? undefined : tokenHashes.get(createHash("sha256").update(bearer).digest("hex"))
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
  const url = await listen(server)
  return {
    url,
    headers: { authorization: `Bearer ${token}`, ...VERSION },
    outboundBody: outboundBodyFor(recipientId),
    creditor: SEEDED_CREDITOR,
    close: async () => void server.close()
  }
}

// --- PGlite: the whole server, and a bare server on a PGlite of its own ------------------------------
const PGLITE_TOKEN = "paykit_bench_pglite_token_0001"
const pgliteHeaders = { authorization: `Bearer ${PGLITE_TOKEN}`, ...VERSION }

/** Where a server's data lives: PGlite in memory or on a directory, or PostgreSQL in a schema of its own. */
type Storage = { readonly _tag: "PgliteMemory" } | { readonly _tag: "PgliteFile" } | { readonly _tag: "Postgres" }

/** A fresh temporary directory for a file-backed PGlite, removed on close. */
const tempDir = (): { readonly path: string; readonly remove: () => void } => {
  const path = mkdtempSync(join(tmpdir(), "paykit-bench-"))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

const databaseUrl = (): string => {
  const url = process.env["DATABASE_URL"]
  if (url === undefined || url === "") throw new Error("the PostgreSQL cases need DATABASE_URL")
  return url
}

/**
 * A schema of its own on DATABASE_URL's PostgreSQL: the URL whose connections use it, and its
 * removal. `shared` names one schema that several server processes use (the three-process case).
 */
const postgresSchema = async (shared?: string): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const { PgClient } = await import("@effect/sql-pg")
  const { SqlClient } = await import("effect/sql")
  const base = databaseUrl()
  const schema = shared ?? `bench_http_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(base), maxConnections: 1 })))
  await admin(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  const url = `${base}${base.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`
  return { url, drop: () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).then(() => undefined) }
}

/** Removes the schema the processes of the three-process case shared (`BENCH_PG_SCHEMA`). */
export const dropSharedSchema = async (schema: string): Promise<void> => (await postgresSchema(schema)).drop()

/**
 * `GET /payouts/{id}` through `@paykit/server`: sandbox mode, SQL tokens, on `storage`. With
 * `asStarted`, exactly as `npm start` composes it (`packages/server/src/main.ts`: `makeServer(config)`
 * and nothing else, so the request log writes a JSON line per request to stdout, which the
 * benchmark sends to /dev/null); otherwise with the request log silenced, as before issue 17.
 */
const paykitServer = async (storage: Storage, asStarted: boolean): Promise<BenchServer> => {
  const server = await import("@paykit/server")
  const dir = storage._tag === "PgliteFile" ? tempDir() : undefined
  const pg = storage._tag === "Postgres" ? await postgresSchema(process.env["BENCH_PG_SCHEMA"]) : undefined
  const config = {
    port: Number(process.env["BENCH_PORT"] ?? 0),
    host: "127.0.0.1",
    mode: "sandbox" as const,
    database: pg === undefined ? { _tag: "Pglite" as const, dataDir: dir?.path } : { _tag: "Postgres" as const, url: Redacted.make(pg.url) },
    sandboxToken: Option.some(Redacted.make(PGLITE_TOKEN))
  }
  const silent = Layer.mergeAll(Layer.succeed(http.RequestLog, http.silentRequestLog), Layer.succeed(server.ServerLog, () => undefined))
  const layer = asStarted ? server.makeServer(config) : server.makeServer(config).pipe(Layer.provide(silent))
  const paykit = ManagedRuntime.make(layer)
  const url = await paykit.runPromise(http.serverUrl)
  const organisation = (await paykit.runPromise(Effect.gen(function*() { return yield* server.Bootstrap }))).organisation.id
  const seedPayouts = Effect.gen(function*() {
    const payouts = yield* engine.PayoutRepository
    const creditors = yield* engine.CreditorRepository
    for (let n = 1; n <= SEEDED; n++) {
      // Another process on the same schema may have seeded it already (the three-process case).
      if ((yield* Effect.option(payouts.get(organisation, payout(n).id)))._tag === "None") yield* Effect.orDie(payouts.insert(organisation, payout(n) as never))
      if ((yield* Effect.option(creditors.get(organisation, creditor(n).id)))._tag === "None") yield* Effect.orDie(creditors.insert(organisation, creditor(n) as never))
    }
  })
  // The server's context holds the repositories; its type names only what it offers embedders.
  await paykit.runPromise(seedPayouts as unknown as Parameters<typeof paykit.runPromise>[0])
  return {
    url,
    headers: pgliteHeaders,
    outboundBody: "",
    creditor: SEEDED_CREDITOR,
    close: async () => {
      await paykit.dispose()
      dir?.remove()
      if (process.env["BENCH_PG_SCHEMA"] === undefined) await pg?.drop()
    }
  }
}

/** The SQL the bare servers send: the token by its SHA-256, then the payout or creditor by (organisation, type, id). */
const TOKEN_SQL = "SELECT organisation_id, status FROM access_tokens WHERE token_hash = $1"
const RESOURCE_SQL = "SELECT version, data FROM resources WHERE organisation_id = $1 AND resource_type = $2 AND id = $3"
type Query = <A>(text: string, params: ReadonlyArray<string>) => Promise<ReadonlyArray<A>>

/** The bare request by hand: version, bearer, the token's row, the payout's row, the envelope. */
const bareHandler = (query: Query) => async (req: IncomingMessage, res: ServerResponse) => {
  const { send, error } = sender(res, randomUUID())
  if (req.headers["gocardless-version"] !== "2015-07-06") return error(400, "version_not_found")
  const bearer = bearerOf(req)
  if (bearer === undefined) return error(401, "access_token_not_found")
  const tokens = await query<{ organisation_id: string; status: string }>(TOKEN_SQL, [createHash("sha256").update(bearer).digest("hex")])
  const caller = tokens[0]
  if (caller === undefined || caller.status !== "active") return error(401, "access_token_not_found")
  const match = /^\/(payouts|creditors)\/([^/?]+)$/.exec(req.url ?? "")
  if (match?.[1] === undefined || match[2] === undefined) return error(404, "path_not_found")
  const type = match[1]
  const rows = await query<{ version: number; data: unknown }>(RESOURCE_SQL, [caller.organisation_id, type, match[2]])
  const row = rows[0]
  return row === undefined ? error(404, "resource_not_found") : send(200, { [type]: typeof row.data === "string" ? JSON.parse(row.data) : row.data })
}

/** The server's tables and the same rows, written through the server's own layers on `client`. */
const seedBare = async (client: LayerType.Layer<SqlClientModule.SqlClient, unknown>, organisation: string) => {
  const server = await import("@paykit/server")
  const store = await import("@paykit/store-sql")
  const tables = Layer.mergeAll(engine.RepositoriesFromBackend, server.SqlAccessTokens, server.Organisations.layerSql).pipe(
    Layer.provideMerge(Layer.effectDiscard(server.migrateServer)),
    Layer.provideMerge(store.SqlStorage),
    Layer.provideMerge(client)
  )
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(tables)
    yield* Effect.provideContext(Effect.gen(function*() {
      yield* (yield* server.Organisations).insert({ id: organisation, name: "Bench", environment: "sandbox", origin: "operator" })
      yield* (yield* http.AccessTokens).insert({ id: "AT_bare", organisation, scope: "read_write", tokenHash: http.hashToken(PGLITE_TOKEN), status: "active" })
      const payouts = yield* engine.PayoutRepository
      for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(payouts.insert(organisation, payout(n) as never))
      const creditors = yield* engine.CreditorRepository
      for (let n = 1; n <= SEEDED; n++) yield* Effect.orDie(creditors.insert(organisation, creditor(n) as never))
    }), context)
  })).pipe(Effect.orDie))
}

/** A bare server answering `query`'s rows, closed with `release`. */
const serveBare = async (query: Query, release: () => Promise<void>): Promise<BenchServer> => {
  const bareDb = createServer((req, res) => void bareHandler(query)(req, res))
  const url = await listen(bareDb)
  return {
    url,
    headers: pgliteHeaders,
    outboundBody: "",
    creditor: SEEDED_CREDITOR,
    close: async () => {
      bareDb.close()
      await release()
    }
  }
}

/**
 * A bare `node:http` server on a PGlite of its own (in memory, or on a temporary directory as
 * `npm start` keeps its data), migrated with the server's tables and holding the same rows, doing
 * by hand what the server's request does in SQL.
 */
const barePglite = async (onFile: boolean): Promise<BenchServer> => {
  const store = await import("@paykit/store-sql")
  const { PGlite } = await import("@electric-sql/pglite")
  const dir = onFile ? tempDir() : undefined
  const db = dir === undefined ? await PGlite.create() : await PGlite.create(dir.path)
  await seedBare(store.PgliteClient.layer({ instance: db }), "OR_bench_pglite")
  return serveBare(async (text, params) => (await db.query(text, [...params])).rows as never, async () => {
    await db.close()
    dir?.remove()
  })
}

/**
 * A bare `node:http` server on PostgreSQL (a schema of its own), its queries sent through
 * `@effect/sql-pg`'s client with `unsafe` (the repository has no `pg` package: `@effect/sql-pg`
 * speaks the protocol itself), with as many connections as the paykit server's pool (10).
 */
const barePostgres = async (): Promise<BenchServer> => {
  const { PgClient } = await import("@effect/sql-pg")
  const { SqlClient } = await import("effect/sql")
  const pg = await postgresSchema()
  const client = PgClient.layer({ url: Redacted.make(pg.url), maxConnections: 10 })
  await seedBare(client, "OR_bench_pg")
  const runtime = ManagedRuntime.make(client)
  const sql = await runtime.runPromise(Effect.service(SqlClient.SqlClient))
  return serveBare((text, params) => runtime.runPromise(sql.unsafe(text, [...params])) as never, async () => {
    await runtime.dispose()
    await pg.drop()
  })
}

/** A port nothing listens on now. */
const freePort = async (): Promise<number> => {
  const probe = createServer()
  const url = await listen(probe)
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return Number(new URL(url).port)
}

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

/**
 * The server `npm start` runs, as it runs it: `packages/server/src/main.ts` in a process of its
 * own (what `npm start` executes, without npm in between), configured by the environment (PGlite on
 * a temporary directory, sandbox mode, the due-work worker, the webhook pump and the JSON logs on),
 * its stdout a pipe this process reads to the end as a log shipper or a terminal would. The
 * creditor read is the sandbox creditor its start creates; it ends on SIGTERM, as `npm start` does.
 */
const npmStarted = async (): Promise<BenchServer> => {
  const dir = tempDir()
  // PORT must be 1 to 65535 (0 is refused): two ports the system has free now, the API's and the connect server's.
  const [port, connectPort] = [await freePort(), await freePort()]
  const child = spawn(process.execPath, ["--conditions=@paykit/source", "--import", "tsx", join("packages", "server", "src", "main.ts")], {
    cwd: repositoryRoot,
    env: { ...process.env, PORT: String(port), PAYKIT_CONNECT_PORT: String(connectPort), HOST: "127.0.0.1", PAYKIT_MODE: "sandbox", PAYKIT_DATA_DIR: dir.path, PAYKIT_SANDBOX_TOKEN: PGLITE_TOKEN },
    stdio: ["ignore", "pipe", "inherit"]
  })
  const started = await new Promise<{ readonly url: string; readonly creditor: string }>((resolve, reject) => {
    let creditor: string | undefined
    child.once("exit", (code) => reject(new Error(`npm start's server exited with ${code}`)))
    // Every chunk is read (an unread pipe would make the server buffer its log); lines are parsed until it listens.
    let pending = ""
    let listening = false
    child.stdout.on("data", (chunk: Buffer) => {
      if (listening) return
      const lines = (pending + chunk.toString("utf8")).split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) {
        const entry = JSON.parse(line) as { readonly msg?: unknown; readonly creditor?: unknown; readonly url?: unknown }
        if (typeof entry.creditor === "string") creditor = entry.creditor
        if (entry.msg !== "listening" || typeof entry.url !== "string" || creditor === undefined) continue
        listening = true
        return resolve({ url: entry.url, creditor })
      }
    })
  })
  child.removeAllListeners("exit")
  return {
    url: started.url,
    headers: pgliteHeaders,
    outboundBody: "",
    creditor: started.creditor,
    close: () =>
      new Promise<void>((done) => {
        child.once("exit", () => {
          dir.remove()
          done()
        })
        child.kill("SIGTERM")
      })
  }
}

export const startServer = (kind: ServerKind): Promise<BenchServer> => {
  switch (kind) {
    case "paykit-memory":
      return paykitMemory({ constantCreate: false })
    case "paykit-memory-constant-create":
      return paykitMemory({ constantCreate: true })
    case "bare-memory":
      return bareMemory()
    case "paykit-pglite":
      return paykitServer({ _tag: "PgliteMemory" }, false)
    case "bare-pglite":
      return barePglite(false)
    case "paykit-pglite-started":
      return paykitServer({ _tag: "PgliteFile" }, true)
    case "bare-pglite-file":
      return barePglite(true)
    case "paykit-postgres-started":
      return paykitServer({ _tag: "Postgres" }, true)
    case "bare-postgres":
      return barePostgres()
    case "paykit-npm-start":
      return npmStarted()
  }
}
