import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { GoCardlessClient } from "gocardless-nodejs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { RequestLog, serverUrl, silentRequestLog } from "@paykit/http"
import { PgliteClient } from "@paykit/store-sql"
import { Bootstrap, makeServer, type ServerConfig, type ServerOptions, ServerLog, type ServerLogLine, type ServerMode } from "../src/index.ts"
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
}

export const testConfig = (options: StartOptions): ServerConfig => ({
  port: 0,
  host: "127.0.0.1",
  mode: options.mode ?? "sandbox",
  database: { _tag: "Pglite", dataDir: options.dataDir },
  sandboxToken: options.sandboxToken === undefined ? Option.none() : Option.some(Redacted.make(options.sandboxToken)),
  ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
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
  const template = options.dataDir === undefined ? await fromTemplate() : undefined
  const serverOptions: ServerOptions = {
    ...(options.serve === undefined ? {} : { serve: options.serve }),
    ...(options.dueWork === undefined ? {} : { dueWork: options.dueWork }),
    ...(options.worker === undefined ? {} : { worker: options.worker }),
    ...(template === undefined ? {} : { sqlClient: PgliteClient.layer({ instance: template }) })
  }
  const runtime = ManagedRuntime.make(makeServer(testConfig(options), serverOptions).pipe(Layer.provide(testLogs(lines))))
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const close = async () => {
    await runtime.dispose()
    await template?.close()
  }
  return { runtime, url, boot, lines, close }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>

/**
 * The composed server in-process on PostgreSQL at `databaseUrl`, in a fresh schema of its own
 * (dropped on close), so parallel tests on one database do not meet.
 */
export const startPostgresServer = async (databaseUrl: string, options: StartOptions = {}): Promise<TestServer> => {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
  await admin(`CREATE SCHEMA ${schema}`)
  const scoped = `${databaseUrl}${databaseUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`
  const lines: Array<ServerLogLine> = []
  const config = { ...testConfig(options), database: { _tag: "Postgres" as const, url: Redacted.make(scoped) } }
  const runtime = ManagedRuntime.make(makeServer(config).pipe(Layer.provide(testLogs(lines))))
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const close = async () => {
    await runtime.dispose()
    await admin(`DROP SCHEMA ${schema} CASCADE`)
  }
  return { runtime, url, boot, lines, close }
}

/** The databases a server test runs on: PGlite, and PostgreSQL when `DATABASE_URL` names one. */
export const SERVER_DATABASES: ReadonlyArray<readonly [string, () => Promise<TestServer>]> = [
  ["PGlite", () => startServer()],
  ...(process.env["DATABASE_URL"] === undefined ? [] : [["PostgreSQL", () => startPostgresServer(process.env["DATABASE_URL"] ?? "")] as const])
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

/** A JSON response body, as an object to read fields from. */
export const json = async (response: Response): Promise<Record<string, unknown>> => {
  const body: unknown = await response.json()
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Error(`expected a JSON object, got ${JSON.stringify(body)}`)
  return body as Record<string, unknown>
}

export const run = <A, E>(server: TestServer, effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof makeServer>>>) => server.runtime.runPromise(effect)
