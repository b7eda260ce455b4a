import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { GoCardlessClient } from "gocardless-nodejs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CurrentRequestRecorder, RequestLog, serverUrl, silentRequestLog } from "@paykit/http"
import { Bootstrap, makeServer, type ServerConfig, type ServerOptions, ServerLog, type ServerLogLine, type ServerMode } from "../src/index.ts"
import type { BankSetting } from "../src/config.ts"
import { fromTemplate } from "./pglite-template.ts"

export interface StartOptions {
  readonly mode?: ServerMode
  /** A PGlite data directory; absent means in memory. */
  readonly dataDir?: string
  readonly sandboxToken?: string
  /** `PAYKIT_ADMIN_SECRET`. */
  readonly adminSecret?: string
  /** Shorter request timeouts or shutdown wait than the defaults. */
  readonly serve?: ServerOptions["serve"]
  /** Due work besides the daily run and the engine's deadlines, and the worker's timing. */
  readonly dueWork?: ServerOptions["dueWork"]
  readonly worker?: ServerOptions["worker"]
  /** `PAYKIT_PUBLIC_URL`; absent, the listening address. */
  readonly publicUrl?: string
  /** `PAYKIT_WEBHOOK_SECRET_KEY` (64 hex digits); absent, a key of the process's own. */
  readonly secretKey?: string
  /** `PAYKIT_REQUEST_LOG`; absent, on. */
  readonly requestLog?: "on" | "off"
  /** `PAYKIT_BANK`; absent, the sandbox bank. */
  readonly bank?: BankSetting
}

export const testConfig = (options: StartOptions): ServerConfig => ({
  port: 0,
  host: "127.0.0.1",
  mode: options.mode ?? "sandbox",
  database: { _tag: "Pglite", dataDir: options.dataDir },
  sandboxToken: options.sandboxToken === undefined ? Option.none() : Option.some(Redacted.make(options.sandboxToken)),
  ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
  ...(options.requestLog === undefined ? {} : { requestLog: options.requestLog }),
  ...(options.bank === undefined ? {} : { bank: options.bank }),
  ...(options.adminSecret === undefined ? {} : { adminSecret: Option.some(Redacted.make(options.adminSecret)) }),
  ...(options.secretKey === undefined ? {} : { webhooks: { endpoint: Option.none(), secretKey: Option.some(Redacted.make(options.secretKey)), keyDir: undefined } })
})

/** The request lines silenced, the server's own lines kept for the test to read. */
export const testLogs = (lines: Array<ServerLogLine>) =>
  Layer.mergeAll(Layer.succeed(RequestLog, silentRequestLog), Layer.succeed(ServerLog, (line: ServerLogLine) => void lines.push(line)))

/**
 * The composed server in-process on a random port. In memory, it starts from the test run's
 * migrated template when there is one (`pglite-template.ts`), as `makeServer` would have left a
 * new database after its migrations.
 */
export const startServer = async (options: StartOptions = {}) => {
  const lines: Array<ServerLogLine> = []
  const template = options.dataDir === undefined ? fromTemplate() : undefined
  const serverOptions: ServerOptions = {
    ...(options.serve === undefined ? {} : { serve: options.serve }),
    ...(options.dueWork === undefined ? {} : { dueWork: options.dueWork }),
    ...(options.worker === undefined ? {} : { worker: options.worker }),
    ...(template === undefined ? {} : { sqlClient: template })
  }
  const runtime = ManagedRuntime.make(makeServer(testConfig(options), serverOptions).pipe(Layer.provide(testLogs(lines))))
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const close = async () => {
    await runtime.dispose()
  }
  return { runtime, url, boot, lines, close }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>

/**
 * The composed server in-process on PostgreSQL at `databaseUrl`, in a fresh schema of its own
 * (dropped on close), so parallel tests on one database do not meet.
 */
export const startPostgresServer = async (databaseUrl: string, options: StartOptions = {}, settings: Readonly<Record<string, string>> = {}): Promise<TestServer> => {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
  await admin(`CREATE SCHEMA ${schema}`)
  const scoped = withSettings(databaseUrl, { ...settings, search_path: schema })
  const lines: Array<ServerLogLine> = []
  const config = { ...testConfig(options), database: { _tag: "Postgres" as const, url: Redacted.make(scoped) } }
  const serverOptions: ServerOptions = {
    ...(options.dueWork === undefined ? {} : { dueWork: options.dueWork }),
    ...(options.worker === undefined ? {} : { worker: options.worker })
  }
  const runtime = ManagedRuntime.make(makeServer(config, serverOptions).pipe(Layer.provide(testLogs(lines))))
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const close = async () => {
    await runtime.dispose()
    await admin(`DROP SCHEMA ${schema} CASCADE`)
  }
  return { runtime, url, boot, lines, close }
}

/** `url` whose connections start with `settings` (`options=-c name=value ...`, after any the URL has). */
export const withSettings = (url: string, settings: Readonly<Record<string, string>>): string => {
  const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(" ")
  return `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(options)}`
}

/** The databases a server test runs on: PGlite, and PostgreSQL when `DATABASE_URL` names one. */
export const SERVER_DATABASES: ReadonlyArray<readonly [string, () => Promise<TestServer>]> = [
  ["PGlite", () => startServer()],
  ...(process.env["DATABASE_URL"] === undefined ? [] : [["PostgreSQL", () => startPostgresServer(process.env["DATABASE_URL"] ?? "")] as const])
]

/**
 * A Citus coordinator with workers when `CITUS_URL` names one (`../shared/citus/cluster.sh
 * --database <name>`): the server distributes its fresh schema there. Its tables get
 * `CITUS_TEST_SHARDS` shards each, not the cluster's 32, so a test's schema is made in seconds.
 */
export const CITUS_URL = process.env["CITUS_URL"]
export const CITUS_TEST_SHARDS = 4
export const CITUS_SETTINGS: Readonly<Record<string, string>> = { "citus.shard_count": String(CITUS_TEST_SHARDS) }
export const startCitusServer = (options: StartOptions = {}): Promise<TestServer> => startPostgresServer(CITUS_URL ?? "", options, CITUS_SETTINGS)

/** `SERVER_DATABASES` and Citus when `CITUS_URL` is set: the suites that run on a cluster too. */
export const SERVER_DATABASES_AND_CITUS: ReadonlyArray<readonly [string, () => Promise<TestServer>]> = [
  ...SERVER_DATABASES,
  ...(CITUS_URL === undefined ? [] : [["Citus", () => startCitusServer()] as const])
]

export const tempDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "paykit-server-"))
  return { dir: join(dir, "data"), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The official client pointed at a local server (the one line of docs/http.md). */
export const localClient = (token: string, url: string): GoCardlessClient => {
  const client = new GoCardlessClient(token)
  ;(client as unknown as { _api: { _baseUrl: string } })._api._baseUrl = url
  return client
}

/** The payer gives their name, email and address to a billing request, through the official client. */
export const collectPayerDetails = async (client: GoCardlessClient, id: string): Promise<void> => {
  await client.billingRequests.collectCustomerDetails(id, {
    customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
    customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
  })
}

/** The payer's UK bank account, given to a billing request. */
export const collectPayerAccount = async (client: GoCardlessClient, id: string): Promise<void> => {
  await client.billingRequests.collectBankAccount(id, { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" })
}

/**
 * A payer's flow through the official client: a Bacs billing request, the payer's details and bank
 * account, confirmed (with a dual signature when asked: the mandate then awaits the payer's
 * approval) and fulfilled. Returns the request's status after it and the mandate it made.
 */
export const fulfilledMandateRequest = async (
  client: GoCardlessClient,
  options: { readonly dualSignature?: boolean } = {}
): Promise<{ readonly status: string; readonly mandate: string }> => {
  const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } })
  const id = request.id ?? ""
  await collectPayerDetails(client, id)
  await collectPayerAccount(client, id)
  await client.billingRequests.confirmPayerDetails(id, options.dualSignature === true ? { payer_requested_dual_signature: true } : {})
  const fulfilled = await client.billingRequests.fulfil(id, {})
  return { status: String(fulfilled.status), mandate: fulfilled.mandate_request?.links?.mandate ?? "" }
}

/** A customer of the sandbox's test values, their bank account and a Bacs mandate to the creditor, made through the official client: the mandate's id. */
export const bacsMandate = async (client: GoCardlessClient, creditor: string): Promise<string> => {
  const customer = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)
  const account = await client.customerBankAccounts.create({
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  } as never)
  return (await client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account.id, creditor } } as never)).id ?? ""
}

/** Everything the request log's writer has queued (it stores a moment after answering), stored: tests read the table after it. */
export const flushedRequestLog = (server: TestServer) =>
  server.runtime.runPromise(Effect.gen(function*() {
    const recorder = yield* CurrentRequestRecorder
    yield* Effect.promise(() => recorder?.flush() ?? Promise.resolve())
  }))

export const api = (url: string, token: string | undefined, path: string, init: { readonly method?: string; readonly body?: unknown; readonly headers?: Record<string, string> } = {}) =>
  fetch(`${url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "gocardless-version": "2015-07-06",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })

/**
 * Moves the clock of `token`'s organisation on to the next `hour`:00 UTC (the next day's when that
 * hour has passed today).
 */
export const toNextHour = async (url: string, token: string, hour: number): Promise<void> => {
  const now = String(((await json(await api(url, token, "/sandbox/simulator/clock")))["simulator_clock"] as Record<string, unknown>)["now"])
  const at = new Date(`${now.slice(0, 10)}T00:00:00.000Z`)
  at.setUTCHours(hour)
  if (at.getTime() <= Date.parse(now)) at.setUTCDate(at.getUTCDate() + 1)
  const response = await api(url, token, "/sandbox/simulator/advance", { method: "POST", body: { to: at.toISOString() } })
  if (response.status !== 200) throw new Error(`the clock did not move to ${at.toISOString()}: ${response.status} ${await response.text()}`)
}

/**
 * Moves the clock of `token`'s organisation on to the next 12:00 UTC. The daily run is at 06:00
 * UTC (DAILY_RUN_OFFSET_MS), so from there, six hours after a run and eighteen before the next, a
 * day advanced crosses exactly one run, on the day after the one the test's writes were made on,
 * whatever the hour the test runs at (from midnight to 06:00 UTC it would otherwise cross that
 * same day's run, which leaves the day's writes for the next).
 */
export const toMidday = (url: string, token: string): Promise<void> => toNextHour(url, token, 12)

/**
 * Moves the clock of `token`'s organisation on to the next 05:00 UTC, an hour before a daily run:
 * what is made then is made by that run, on the day its dates count from, so a test's model of
 * announced dates holds without the rule that keeps them for what is made after the day's run
 * (docs/subscriptions.md, "Charge dates announced after the day's run").
 */
export const beforeDailyRun = (url: string, token: string): Promise<void> => toNextHour(url, token, 5)

/** A JSON response body, as an object to read fields from. */
export const json = async (response: Response): Promise<Record<string, unknown>> => {
  const body: unknown = await response.json()
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Error(`expected a JSON object, got ${JSON.stringify(body)}`)
  return body as Record<string, unknown>
}

export const run = <A, E>(server: TestServer, effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof makeServer>>>) => server.runtime.runPromise(effect)
