import { OrganisationId } from "@paykit/core"
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

const { Effect, Layer, ManagedRuntime, Option, Redacted, Schema } = await import("effect")
const engine = await import("@paykit/engine")
const http = await import("@paykit/http")

export const SERVER_KINDS = [
  "paykit-memory", "paykit-memory-constant-create", "bare-memory", "paykit-pglite", "bare-pglite",
  "paykit-pglite-started", "bare-pglite-file", "bare-pglite-file-named", "paykit-postgres-started", "bare-postgres",
  "paykit-npm-start", "paykit-npm-start-unlogged"
] as const
export type ServerKind = (typeof SERVER_KINDS)[number]

export interface BenchServer {
  readonly url: string
  readonly headers: Record<string, string>
  /** A valid `POST /outbound_payments` body for this server (its recipient's id is its own). */
  readonly outboundBody: string
  /** The id of a creditor of the token's organisation, for `GET /creditors/{id}`. */
  readonly creditor: string
  /** The server's own process, when it has one (`npm start`'s): `request-log-cpu.bench.ts` reads its CPU time. */
  readonly pid?: number | undefined
  /** The PGlite pair's rows by table (and by resource type and due-work kind): what a creation wrote, compared by the tests. */
  readonly rowCounts?: () => Promise<Record<string, number>>
  readonly close: () => Promise<void>
}

/** The creditor each seeded server answers `GET /creditors/{id}` for. */
const SEEDED_CREDITOR = "CR000000000100"

const ORGANISATION = OrganisationId("OR0000000BENCH")
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

/** Confirmation of payee by hand: the sandbox's name rules (`SANDBOX_NAMES` of `@paykit/engine`). */
const sandboxNameCheck = (name: string) => {
  const lower = name.toLowerCase()
  return lower.includes("no match") ? { result: "no_match", actual_account_name: null }
    : lower.includes("unable to match") ? { result: "unable_to_match", actual_account_name: null }
    : lower.includes("partial match") ? { result: "partial_match", actual_account_name: name }
    : { result: "full_match", actual_account_name: null }
}

/** A bare server's refusal: its status and body. */
interface Refusal {
  readonly status: number
  readonly body: unknown
}
const validationFailed: Refusal = { status: 422, body: { error: { code: 422, type: "validation_failed" } } }

/** What a bare server reads of an outbound payment's body. */
interface OutboundInput {
  readonly amount: number
  readonly scheme: string
  readonly reference: string | null
  readonly creditor: string | undefined
  readonly recipient: string
}
const OUTBOUND_SCHEMES = ["faster_payments"]

/** An outbound payment's body checked by hand: JSON, the envelope, the amount, the scheme and the links' types. */
const outboundInputOf = (text: string): OutboundInput | Refusal => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { status: 400, body: { error: { code: 400, type: "invalid_api_usage", message: "invalid_document_structure" } } }
  }
  const input = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["outbound_payments"] : undefined
  if (typeof input !== "object" || input === null) return validationFailed
  const r = input as { amount?: unknown; scheme?: unknown; reference?: unknown; links?: { recipient_bank_account?: unknown; creditor?: unknown } }
  const { amount, scheme } = r
  const recipient = r.links?.recipient_bank_account
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0 || typeof scheme !== "string" ||
    !OUTBOUND_SCHEMES.includes(scheme) || typeof recipient !== "string") {
    return validationFailed
  }
  const creditor = r.links?.creditor
  return { amount, scheme, reference: typeof r.reference === "string" ? r.reference : null, creditor: creditor === undefined ? undefined : String(creditor), recipient }
}

/** The payment a creation answers, awaiting approval, its recipient's holder name checked as the sandbox does. */
const outboundPaymentOf = (
  id: string,
  created_at: string,
  input: OutboundInput,
  creditor: string,
  recipient: { readonly account_holder_name: string; readonly customer: string }
) => ({
  id, created_at, amount: input.amount, currency: "GBP", description: null, execution_date: null, is_withdrawal: false,
  reference: input.reference, scheme: input.scheme, status: "pending_approval",
  verifications: { recipient_bank_account_holder_verification: { type: "confirmation_of_payee", ...sandboxNameCheck(recipient.account_holder_name) } },
  metadata: {},
  links: { creditor, recipient_bank_account: input.recipient, customer: recipient.customer }
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
  const outbound = new Map<string, unknown>()
  const eventLog: Array<unknown> = []
  const windows = new Map<string, { start: number; count: number }>()
  let outboundCounter = 0
  /** The bare server's outbound payment: the body checked by hand, the recipient looked up, stored. */
  const createOutbound = (organisation: string, text: string): { status: number; body: unknown } => {
    const input = outboundInputOf(text)
    if ("status" in input) return input
    const recipient = recipients.get(input.recipient)
    if (recipient === undefined || recipient.currency !== "GBP" || !recipient.enabled ||
      (input.creditor !== undefined && !store.get(organisation)?.has(input.creditor))) {
      return validationFailed
    }
    const creditorId = input.creditor ?? ""
    const accountKey = `${organisation}/${creditorId}`
    if (!paymentAccounts.has(accountKey)) paymentAccounts.set(accountKey, { id: `BA${String(paymentAccounts.size + 1).padStart(12, "0")}`, account_balance: 0 })
    const id = `OUT${String(++outboundCounter).padStart(11, "0")}`
    const created_at = new Date().toISOString()
    // Created as verifying, verified at once, awaiting approval: the engine's two steps and two events.
    const payment = outboundPaymentOf(id, created_at, input, creditorId, recipient)
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
/** The payee of the PGlite pair's outbound payments: a customer's enabled GBP account, the same rows on both sides. */
const RECIPIENT = {
  customer: {
    id: "CU000000000001", created_at: "2026-11-21T10:00:00.000Z", email: null, given_name: "Ada", family_name: "Lovelace", company_name: null,
    address_line1: null, address_line2: null, address_line3: null, city: null, region: null, postal_code: null, country_code: "GB",
    language: "en", phone_number: null, swedish_identity_number: null, danish_identity_number: null, metadata: {}
  },
  account: {
    id: "BA000000000001", created_at: "2026-11-21T10:00:00.000Z", account_holder_name: "Ada Lovelace", account_number_ending: "11",
    account_type: null, bank_account_token: null, bank_name: "BARCLAYS BANK PLC", country_code: "GB", currency: "GBP", enabled: true,
    payer_name_verification_result: null, trusted_recipient: false, metadata: {}, links: { customer: "CU000000000001" }
  }
} as const

/** Stores the recipient's customer and account (checked by the engine's schemas) unless another process on the same schema did. */
const seedRecipient = (organisation: string) =>
  Effect.gen(function*() {
    const customers = yield* engine.CustomerRepository
    const accounts = yield* engine.CustomerBankAccountRepository
    const customer = Schema.decodeUnknownSync(engine.Customer)(RECIPIENT.customer)
    const account = Schema.decodeUnknownSync(engine.CustomerBankAccount)(RECIPIENT.account)
    if ((yield* Effect.option(customers.get(organisation, customer.id)))._tag === "None") yield* Effect.orDie(customers.insert(organisation, customer))
    if ((yield* Effect.option(accounts.get(organisation, account.id)))._tag === "None") yield* Effect.orDie(accounts.insert(organisation, account))
  })
const PGLITE_TOKEN = "paykit_bench_pglite_token_0001"
const pgliteHeaders = { authorization: `Bearer ${PGLITE_TOKEN}`, ...VERSION }

/** Where a server's data lives: PGlite in memory or on a directory, or PostgreSQL in a schema of its own. */
type Storage = { readonly _tag: "PgliteMemory" } | { readonly _tag: "PgliteFile" } | { readonly _tag: "Postgres" }

/** A fresh temporary directory for a file-backed PGlite, removed on close. */
export const tempDir = (): { readonly path: string; readonly remove: () => void } => {
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
export const postgresSchema = async (shared?: string): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
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
  // Not as started: the request log silenced, and the rate limits raised for the POST case.
  const layer = asStarted ? server.makeServer(config) : server.makeServer(config, { rateLimits: () => RAISED_RATE_LIMIT }).pipe(Layer.provide(silent))
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
    yield* seedRecipient(organisation)
  })
  // The server's context holds the repositories; its type names only what it offers embedders.
  await paykit.runPromise(seedPayouts as unknown as Parameters<typeof paykit.runPromise>[0])
  return {
    url,
    headers: pgliteHeaders,
    outboundBody: outboundBodyFor(RECIPIENT.account.id),
    creditor: SEEDED_CREDITOR,
    rowCounts: async () => {
      const { SqlClient } = await import("effect/sql")
      return countsOf(await paykit.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ name: string; n: number }>(ROW_COUNTS_SQL))))
    },
    close: async () => {
      await paykit.dispose()
      dir?.remove()
      if (process.env["BENCH_PG_SCHEMA"] === undefined) await pg?.drop()
    }
  }
}

/** Rows by table, resource type and due-work kind: what `BenchServer.rowCounts` answers (not the rate-limit windows, which real time opens). */
const ROW_COUNTS_SQL = `SELECT 'resources/' || resource_type AS name, count(*)::int AS n FROM resources GROUP BY resource_type
  UNION ALL SELECT 'transitions', count(*)::int FROM transitions
  UNION ALL SELECT 'events', count(*)::int FROM events
  UNION ALL SELECT 'outbox', count(*)::int FROM outbox
  UNION ALL SELECT 'due_work/' || kind, count(*)::int FROM due_work GROUP BY kind`
const countsOf = (rows: ReadonlyArray<{ readonly name: string; readonly n: number }>): Record<string, number> =>
  Object.fromEntries(rows.map((row) => [row.name, row.n]))

/** The SQL the bare servers send: the token by its SHA-256, then the payout or creditor by (organisation, type, id). */
const TOKEN_SQL = "SELECT organisation_id, status FROM access_tokens WHERE token_hash = $1"
const RESOURCE_SQL = "SELECT version, data FROM resources WHERE organisation_id = $1 AND resource_type = $2 AND id = $3"
type Query = <A>(text: string, params: ReadonlyArray<string | number>) => Promise<ReadonlyArray<A>>

/** A bare server's database: its statements, and (where the server takes POSTs) a transaction whose statements run on `query` alone. */
interface BareDb {
  readonly query: Query
  readonly transaction?: <A>(body: (query: Query) => Promise<A>) => Promise<A>
}

/**
 * Every rate-limit group's limit on the PGlite pair: past any run's volume (the spec's 300 a minute
 * would turn the POST case into 429s), and within the windows' `integer` count column.
 */
export const RAISED_RATE_LIMIT = 2_147_483_647
/** The SQL limiter's statements (`SqlRateLimiter` of `@paykit/server`): count the request in its window; on a new window, drop the organisation's old ones. */
const RATE_LIMIT_SQL = `INSERT INTO rate_limit_windows (organisation_id, group_name, window_start, count) VALUES ($1, $2, $3, 1)
  ON CONFLICT (organisation_id, group_name, window_start)
  DO UPDATE SET count = rate_limit_windows.count + 1 WHERE rate_limit_windows.count < $4 RETURNING count`
const OLD_WINDOWS_SQL = "DELETE FROM rate_limit_windows WHERE organisation_id = $1 AND group_name = $2 AND window_start < $3"
const WINDOW_MS = 60_000

/** The statements of a creation: the resource row, the creditor's payment account, the approval deadline, two history rows, two events. */
const INSERT_RESOURCE_SQL = `INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
  VALUES ($1, $2, $3, 1, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING version`
const ACCOUNT_SQL = `SELECT version, data FROM resources WHERE (organisation_id = $1 AND resource_type = 'payment_accounts'
  AND filters ? 'creditor' AND (filters->>'creditor') COLLATE "C" = $2 AND filters ? 'currency' AND (filters->>'currency') COLLATE "C" = $3) ORDER BY id ASC`
const DUE_SQL = `INSERT INTO due_work (organisation_id, kind, key, due_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (organisation_id, kind, key) DO UPDATE SET due_at = LEAST(due_work.due_at, EXCLUDED.due_at)`
const TRANSITIONS_SQL = `INSERT INTO transitions (organisation_id, id, version, created_at, filters, data)
  VALUES ($1, $2, 1, $3, $4, $5), ($1, $6, 1, $3, $4, $7)`
const EVENTS_SQL = `INSERT INTO events (organisation_id, id, version, created_at, filters, data)
  VALUES ($1, $2, 1, $3, $4, $5), ($1, $6, 1, $3, $7, $8)`
/** An outbound payment not approved within seven days is cancelled: its deadline is due work. */
const APPROVAL_WINDOW_MS = 7 * 86_400_000

const dataOf = <A>(row: { readonly data: unknown } | undefined): A | undefined =>
  row === undefined ? undefined : (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as A

/**
 * The creation by hand in one transaction, the rows the engine writes: the creditor and the
 * recipient read, the payment stored awaiting approval, the creditor's payment account opened on
 * first use, the approval deadline scheduled, the two transitions (created verifying, verified to
 * pending approval) and their two events (which the outbox trigger queues, as for paykit's).
 */
const bareCreateOutbound = async (query: Query, organisation: string, input: OutboundInput, n: number): Promise<Refusal> => {
  const creditorId = input.creditor ?? ""
  const creditor = dataOf<{ readonly name: string }>((await query<{ data: unknown }>(RESOURCE_SQL, [organisation, "creditors", creditorId]))[0])
  const recipient = dataOf<{ readonly currency: string | null; readonly enabled: boolean; readonly account_holder_name: string; readonly links: { readonly customer: string } }>(
    (await query<{ data: unknown }>(RESOURCE_SQL, [organisation, "customer_bank_accounts", input.recipient]))[0]
  )
  if (creditor === undefined || recipient === undefined || recipient.currency !== "GBP" || !recipient.enabled) return validationFailed
  const id = `OUT${String(n).padStart(11, "0")}`
  const created_at = new Date().toISOString()
  const payment = outboundPaymentOf(id, created_at, input, creditorId, { account_holder_name: recipient.account_holder_name, customer: recipient.links.customer })
  await query(INSERT_RESOURCE_SQL, [organisation, "outbound_payments", id, created_at, JSON.stringify({ created_at, status: payment.status, creditor: creditorId }), JSON.stringify(payment)])
  if ((await query(ACCOUNT_SQL, [organisation, creditorId, "GBP"])).length === 0) {
    const account = {
      id: `BA${String(n).padStart(12, "0")}`, created_at, account_balance: 0, account_holder_name: creditor.name.toUpperCase().slice(0, 18),
      account_number_ending: "00", bank_name: "PAYKIT SANDBOX BANK", currency: "GBP", links: { creditor: creditorId }
    }
    await query(INSERT_RESOURCE_SQL, [organisation, "payment_accounts", account.id, created_at, JSON.stringify({ created_at, creditor: creditorId, currency: "GBP" }), JSON.stringify(account)])
  }
  await query(DUE_SQL, [organisation, "outbound_approval_expiry", id, Date.parse(created_at) + APPROVAL_WINDOW_MS])
  const steps = [
    { key: 10, from: null, to: "verifying", event: "create", action: "created", cause: { origin: "api", cause: "outbound_payment_created", description: "Outbound payment created via the API." } },
    {
      key: 11, from: "verifying", to: "pending_approval", event: "verification_completed", action: "set_to_pending_approval",
      cause: { origin: "gocardless", cause: "outbound_payment_verified", description: "The recipient's account holder name was checked and the payment is awaiting approval." }
    }
  ] as const
  const eventIds = steps.map((step) => `EV${String(2 * n + step.key - 10).padStart(12, "0")}`)
  const transitionIds = steps.map((step) => `${created_at}/${id}/${String(step.key).padStart(12, "0")}`)
  const transitions = steps.map((step, i) => JSON.stringify({
    id: transitionIds[i], created_at, resource_id: id, sort_key: step.key, resource_type: "outbound_payments", from: step.from, to: step.to,
    event: step.event, emits: step.action, at: created_at, cause: step.cause, event_id: eventIds[i]
  }))
  await query(TRANSITIONS_SQL, [
    organisation, transitionIds[0] ?? "", created_at, JSON.stringify({ created_at, resource_type: "outbound_payments", resource_id: id }), transitions[0] ?? "",
    transitionIds[1] ?? "", transitions[1] ?? ""
  ])
  const links = { outbound_payment: id, creditor: creditorId, customer: recipient.links.customer }
  const events = steps.map((step, i) => ({
    filters: JSON.stringify({ created_at, resource_type: "outbound_payments", action: step.action, creditor: creditorId, customer: links.customer, outbound_payment: id }),
    data: JSON.stringify({
      id: eventIds[i], created_at, resource_type: "outbound_payments", action: step.action, links,
      details: i === 0 ? step.cause : { ...step.cause, scheme: input.scheme }, metadata: {}, resource_metadata: {}
    })
  }))
  await query(EVENTS_SQL, [
    organisation, eventIds[0] ?? "", created_at, events[0]?.filters ?? "", events[0]?.data ?? "", eventIds[1] ?? "", events[1]?.filters ?? "", events[1]?.data ?? ""
  ])
  return { status: 201, body: { outbound_payments: payment } }
}

/** The request's body, whole. */
const bodyOf = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** `POST /outbound_payments` by hand: the window counted as the SQL limiter counts it, the body checked, the creation in one transaction. */
const barePostOutbound = async (
  db: Required<BareDb>,
  organisation: string,
  req: IncomingMessage,
  reply: ReturnType<typeof sender>,
  n: number
) => {
  const text = await bodyOf(req)
  if (!/^application\/json/.test(req.headers["content-type"] ?? "")) return reply.error(400, "invalid_content_type")
  const now = Date.now()
  const start = now - (now % WINDOW_MS)
  const counted = await db.query<{ count: number }>(RATE_LIMIT_SQL, [organisation, "outbound_payment_writes", start, RAISED_RATE_LIMIT])
  const count = counted[0]?.count ?? RAISED_RATE_LIMIT
  if (count === 1) await db.query(OLD_WINDOWS_SQL, [organisation, "outbound_payment_writes", start - WINDOW_MS])
  const limitHeaders = {
    "ratelimit-limit": String(RAISED_RATE_LIMIT),
    "ratelimit-remaining": String(RAISED_RATE_LIMIT - count),
    "ratelimit-reset": String(Math.ceil((start + WINDOW_MS - now) / 1000))
  }
  const input = outboundInputOf(text)
  const outcome = "status" in input ? input : await db.transaction((query) => bareCreateOutbound(query, organisation, input, n))
  const id = (outcome.body as { outbound_payments?: { id: string } }).outbound_payments?.id
  reply.send(outcome.status, outcome.body, id === undefined ? limitHeaders : { ...limitHeaders, location: `/outbound_payments/${id}` })
}

/**
 * The bare request by hand: version, bearer, the token's row, then the payout's or creditor's row
 * and the envelope; or, where the database takes transactions, the outbound payment's creation.
 */
const bareHandler = (db: BareDb) => {
  const { query, transaction } = db
  let created = 0
  return async (req: IncomingMessage, res: ServerResponse) => {
    const reply = sender(res, randomUUID())
    const { send, error } = reply
    if (req.headers["gocardless-version"] !== "2015-07-06") return error(400, "version_not_found")
    const bearer = bearerOf(req)
    if (bearer === undefined) return error(401, "access_token_not_found")
    const tokens = await query<{ organisation_id: string; status: string }>(TOKEN_SQL, [createHash("sha256").update(bearer).digest("hex")])
    const caller = tokens[0]
    if (caller === undefined || caller.status !== "active") return error(401, "access_token_not_found")
    if (req.url === "/outbound_payments" && req.method === "POST" && transaction !== undefined) {
      return barePostOutbound({ query, transaction }, caller.organisation_id, req, reply, ++created)
    }
    const match = /^\/(payouts|creditors)\/([^/?]+)$/.exec(req.url ?? "")
    if (match?.[1] === undefined || match[2] === undefined) return error(404, "path_not_found")
    const type = match[1]
    const row = dataOf((await query<{ version: number; data: unknown }>(RESOURCE_SQL, [caller.organisation_id, type, match[2]]))[0])
    return row === undefined ? error(404, "resource_not_found") : send(200, { [type]: row })
  }
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
      yield* seedRecipient(organisation)
    }), context)
  })).pipe(Effect.orDie))
}

/** A bare server answering `query`'s rows, closed with `release`. */
const serveBare = async (db: BareDb, release: () => Promise<void>): Promise<BenchServer> => {
  const handle = bareHandler(db)
  const bareDb = createServer((req, res) => void handle(req, res))
  const url = await listen(bareDb)
  return {
    url,
    headers: pgliteHeaders,
    outboundBody: db.transaction === undefined ? "" : outboundBodyFor(RECIPIENT.account.id),
    creditor: SEEDED_CREDITOR,
    rowCounts: async () => countsOf(await db.query<{ name: string; n: number }>(ROW_COUNTS_SQL, [])),
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
  await seedBare(store.PgliteClient.layer({ instance: db }), "OR0BENCHPG11TE")
  const query = (on: Pick<typeof db, "query">): Query => async (text, params) => (await on.query(text, [...params])).rows as never
  // PGlite's transaction holds the database for its statements alone, as paykit's unit of work does.
  const transaction = <A>(body: (q: Query) => Promise<A>) => db.transaction((tx) => body(query(tx)))
  return serveBare({ query: query(db), transaction }, async () => {
    await db.close()
    dir?.remove()
  })
}

/**
 * The bare server on a PGlite on a temporary directory, its statements sent as paykit's are: named
 * prepared statements, through `@paykit/store-sql`'s PGlite client with `unsafe` (as the bare
 * PostgreSQL server sends its through `@effect/sql-pg`'s). Against it, paykit's ratio is what
 * paykit's own code costs, with the statements' cost the same on both sides.
 */
const barePgliteNamed = async (): Promise<BenchServer> => {
  const store = await import("@paykit/store-sql")
  const { PGlite } = await import("@electric-sql/pglite")
  const dir = tempDir()
  const db = await PGlite.create(dir.path)
  return serveBareOnClient(store.PgliteClient.layer({ instance: db }), "OR0BENCHPG11TE", async () => {
    await db.close()
    dir.remove()
  })
}

/**
 * A bare `node:http` server on PostgreSQL (a schema of its own), its queries sent through
 * `@effect/sql-pg`'s client with `unsafe` (the repository has no `pg` package: `@effect/sql-pg`
 * speaks the protocol itself), with as many connections as the paykit server's pool (10).
 */
const barePostgres = async (): Promise<BenchServer> => {
  const { PgClient } = await import("@effect/sql-pg")
  const pg = await postgresSchema()
  return serveBareOnClient(PgClient.layer({ url: Redacted.make(pg.url), maxConnections: 10 }), "OR00000BENCHPG", pg.drop)
}

/**
 * The bare server's statements sent through an Effect `SqlClient` with `unsafe`, on the rows
 * `seedBare` writes for `organisation`; `release` runs after the client is disposed.
 */
const serveBareOnClient = async (
  client: LayerType.Layer<SqlClientModule.SqlClient, unknown>,
  organisation: string,
  release: () => Promise<void>
): Promise<BenchServer> => {
  const { SqlClient } = await import("effect/sql")
  await seedBare(client, organisation)
  const runtime = ManagedRuntime.make(client)
  const sql = await runtime.runPromise(Effect.service(SqlClient.SqlClient))
  return serveBare({ query: (text, params) => runtime.runPromise(sql.unsafe(text, [...params])) as never }, async () => {
    await runtime.dispose()
    await release()
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
 * `extraEnv`: more settings (the traces benchmark's OpenTelemetry variables).
 */
export const npmStarted = async (requestLog: "on" | "off", extraEnv: Readonly<Record<string, string>> = {}): Promise<BenchServer> => {
  const dir = tempDir()
  // PORT must be 1 to 65535 (0 is refused): two ports the system has free now, the API's and the connect server's.
  const [port, connectPort] = [await freePort(), await freePort()]
  const child = spawn(process.execPath, ["--conditions=@paykit/source", "--import", "tsx", join("packages", "server", "src", "main.ts")], {
    cwd: repositoryRoot,
    env: { ...process.env, PORT: String(port), PAYKIT_CONNECT_PORT: String(connectPort), HOST: "127.0.0.1", PAYKIT_MODE: "sandbox", PAYKIT_DATA_DIR: dir.path, PAYKIT_SANDBOX_TOKEN: PGLITE_TOKEN, PAYKIT_REQUEST_LOG: requestLog, ...extraEnv },
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
    pid: child.pid,
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
    case "bare-pglite-file-named":
      return barePgliteNamed()
    case "paykit-postgres-started":
      return paykitServer({ _tag: "Postgres" }, true)
    case "bare-postgres":
      return barePostgres()
    case "paykit-npm-start":
      return npmStarted("on")
    case "paykit-npm-start-unlogged":
      return npmStarted("off")
  }
}
