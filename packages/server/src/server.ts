import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, References } from "effect"
import { HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { mkdirSync } from "node:fs"
import { IdGenerator } from "@paykit/core"
import {
  DashboardBaseUrl, DEFAULT_EVENT_RETENTION_DAYS, type DueWorker, HostedPagesBaseUrl, type DueWorkDeclarations, type DueWorkSchedule, type DueWorkStore, retentionDueWork,
  retentionPolicy, SandboxBank, WebhookDeliveries, webhookDueWork
} from "@paykit/engine"
import { type AccessTokens, apiEngineOn, IDEMPOTENCY_KEY_LIFETIME_MS, type IdempotencyStore, apiDispatcher, makeHttpAppWith, PageSigningSecret, paykitRoutes, SandboxBankPage, serveHttpApp, type ServeOptions, serverUrl } from "@paykit/http"
import { PgliteClient, RetentionSql, SqlStorage, storageMaintenance, WebhookOutboxSql } from "@paykit/store-sql"
import { Bootstrap, BootstrapLive } from "./bootstrap.ts"
import { connectPortOf, type Database, type ServerConfig } from "./config.ts"
import { dataDirLock } from "./data-dir-lock.ts"
import { migrateServer } from "./migrations/index.ts"
import { oauthAppRoutes } from "./oauth/app-routes.ts"
import { ConnectServer, connectServerLayer } from "./oauth/connect-server.ts"
import { OAuthStore } from "./oauth/store.ts"
import { Organisations } from "./organisations.ts"
import { rootRoute } from "./root-page.ts"
import { dueWorkerLayer, ensureDailyRuns, ensureStorageMaintenance, pollDueWork, type WorkerTiming } from "./due-work.ts"
import { liveSandboxRoutes, sandboxRoutes } from "./sandbox-routes.ts"
import { liveScenarioRoutes, scenarioRoutes } from "./scenario-routes.ts"
import { ServerLog } from "./server-log.ts"
import { SqlAccessTokens } from "./sql-access-tokens.ts"
import { SqlIdempotencyStore } from "./sql-idempotency.ts"
import { SqlRateLimiter } from "./sql-rate-limit.ts"
import { serverSecretKey, webhookSecretKeyLayer, webhookSenderLayer, webhookTrustLayer } from "./webhook-setup.ts"

/** The database client the configuration names: PostgreSQL at `DATABASE_URL`, else PGlite on its data directory. */
export const sqlClientLayer = (database: Database): Layer.Layer<SqlClient.SqlClient, unknown> => {
  if (database._tag === "Postgres") return PgClient.layer({ url: database.url, maxConnections: 10 })
  const dataDir = database.dataDir
  if (dataDir === undefined) return PgliteClient.layer({})
  return Layer.unwrap(Effect.sync(() => {
    // PGlite makes its directory but not the parents (`./.paykit` on a fresh clone).
    mkdirSync(dataDir, { recursive: true })
    // Taken before PGlite opens the directory and released after it closes it.
    return PgliteClient.layer({ dataDir }).pipe(Layer.provide(dataDirLock(dataDir)))
  }))
}

const describeDatabase = (database: Database): string =>
  database._tag === "Postgres" ? "postgresql (DATABASE_URL)" : database.dataDir === undefined ? "pglite (in memory)" : `pglite ${database.dataDir}`

/** What a running server offers its embedder and its tests, in both modes. */
export type ServerServices = Bootstrap | HttpServer.HttpServer | SqlClient.SqlClient | AccessTokens | IdempotencyStore | Organisations | DueWorker | DueWorkStore | DueWorkSchedule | OAuthStore | ConnectServer

export interface ServerOptions {
  /** Replaces the configured database (tests pass an in-memory PGlite or one on a temporary directory). */
  readonly sqlClient?: Layer.Layer<SqlClient.SqlClient, unknown>
  /** Registers Effect's spans (one per SQL statement, among others) for a tracer the embedder adds; off by default. */
  readonly tracing?: boolean
  /**
   * The request timeouts and the shutdown's wait, when not the defaults (`REQUEST_HEADERS_TIMEOUT_MS`,
   * `REQUEST_BODY_TIMEOUT_MS`, 20 seconds); tests shorten them to watch them act.
   */
  readonly serve?: Pick<ServeOptions, "headersTimeout" | "bodyTimeout" | "gracefulShutdownTimeout">
  /** How long a webhook attempt waits for its answer, when not `WEBHOOK_TIMEOUT_MS`; tests shorten it. */
  readonly webhookTimeoutMs?: number
  /**
   * Due work the worker runs besides the daily run (the webhooks feature's deliveries and pump,
   * the deadlines): each a `DueWorkDeclarations`, plugged in as `Simulator.layerWith` takes jobs.
   */
  readonly dueWork?: ReadonlyArray<DueWorkDeclarations>
  /** The worker's poll interval and lease, when not `config.worker`'s (tests shorten the lease). */
  readonly worker?: WorkerTiming
}

const pieces = (config: ServerConfig, options: ServerOptions) => {
  const database = Layer.effectDiscard(migrateServer).pipe(
    Layer.provideMerge(SqlStorage),
    Layer.provideMerge(options.sqlClient ?? sqlClientLayer(config.database))
  )
  const ports = Layer.mergeAll(
    SqlAccessTokens,
    SqlIdempotencyStore,
    Organisations.layerSql,
    OAuthStore.layerSql,
    // Windows in the database, on real time: shared by every process on it.
    SqlRateLimiter,
    RetentionSql
  )
  return {
    database,
    ports,
    externals: Layer.mergeAll(
      SandboxBank,
      IdGenerator.layer,
      webhookSecretKeyLayer(config.database, config.webhooks),
      webhookSenderLayer(config.mode, options.webhookTimeoutMs)
    ),
    boot: BootstrapLive({ mode: config.mode, sandboxToken: config.sandboxToken, webhooks: config.webhooks }),
    timing: { ...config.worker, ...options.worker },
    retention: retentionPolicy(config.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS, IDEMPOTENCY_KEY_LIFETIME_MS),
    dueWork: options.dueWork ?? [],
    listen: { port: config.port, host: config.host, ...options.serve }
  }
}

/**
 * The server in either mode: the engine on SQL, the due-work worker (the daily run and the extra
 * declarations, each organisation on its own clock, which is real time in live mode), the API's
 * routes and the mode's `/sandbox/` routes. The worker starts polling once the first start's
 * organisation exists and every organisation has its daily run, and stops when the server does.
 */
const makeModeServer = (config: ServerConfig, options: ServerOptions) => {
  const { database, ports, externals, boot, listen, timing, dueWork, retention } = pieces(config, options)
  const foundation = ports.pipe(Layer.provideMerge(database))
  // apiEngineOn keeps only the storage ports of what it is given; the same (memoised) foundation
  // is merged again for the server's ports.
  const trust = webhookTrustLayer(config.mode).pipe(Layer.provide(foundation))
  const engine = apiEngineOn(foundation).pipe(Layer.provideMerge(foundation), Layer.provideMerge(Layer.merge(externals, trust)))
  // Webhook delivery: the outbox's pump and the `webhook_delivery` kind, beside the daily run; and
  // the database's upkeep (statistics), a kind of its own.
  const deliveries = WebhookDeliveries.layer.pipe(Layer.provideMerge(WebhookOutboxSql), Layer.provideMerge(engine))
  // Retention (`retention` rows): events, webhook records and idempotency keys past their period.
  const declared = Effect.all([webhookDueWork, retentionDueWork(retention), storageMaintenance])
  const services = Layer.unwrap(Effect.map(declared, (kinds) => dueWorkerLayer([...kinds, ...dueWork], timing))).pipe(
    Layer.provideMerge(deliveries)
  )
  const started = Layer.mergeAll(pollDueWork(timing), Layer.effectDiscard(ensureDailyRuns), Layer.effectDiscard(ensureStorageMaintenance)).pipe(
    Layer.provideMerge(boot.pipe(Layer.provideMerge(services)))
  )
  const sandbox = config.mode === "sandbox" ? sandboxRoutes : liveSandboxRoutes
  const scenarios = config.mode === "sandbox" ? scenarioRoutes : liveScenarioRoutes
  const routes = makeHttpAppWith(apiDispatcher(paykitRoutes, sandbox, scenarios, oauthAppRoutes, rootRoute(config.mode))).pipe(Layer.provide(pagesLayer(config)))
  // The connect server (OAuth) listens beside the API, on the same host, stores and pages' secret.
  const connect = connectServerLayer(config.mode, { ...listen, port: connectPortOf(config) }, config.connectUrl, pagesLayer(config))
  return announce(config).pipe(Layer.provideMerge(Layer.merge(serveHttpApp(routes, listen), connect).pipe(Layer.provideMerge(started))))
}

/**
 * Where people reach this server: `PAYKIT_PUBLIC_URL`, else the address it listens on (a wildcard
 * host, which no browser can open, as `localhost`).
 */
export const publicUrlOf = (config: Pick<ServerConfig, "host" | "publicUrl">): Effect.Effect<string, never, HttpServer.HttpServer> =>
  config.publicUrl !== undefined
    ? Effect.succeed(config.publicUrl.replace(/\/+$/, ""))
    : Effect.map(HttpServer.HttpServer, (server) => {
      if (server.address._tag === "UnixPathAddress") return `http://unix:${server.address.path}`
      const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host
      return `http://${host.includes(":") ? `[${host}]` : host}:${server.address.port}`
    })

/**
 * What the pages read of the server: the engine's URL bases (`HostedPagesBaseUrl`,
 * `DashboardBaseUrl`) set to the public URL, the secret their CSRF key comes from (the
 * server's key, so every process on one store takes the others' forms), and whether the sandbox
 * bank's page acts (a sandbox server's; a live server's payers authorise at their real banks).
 */
const pagesLayer = (config: ServerConfig) =>
  Layer.unwrap(Effect.gen(function*() {
    const url = yield* publicUrlOf(config)
    const secret = yield* serverSecretKey(config.database, config.webhooks)
    return Layer.mergeAll(
      Layer.succeed(HostedPagesBaseUrl, url),
      Layer.succeed(DashboardBaseUrl, url),
      Layer.succeed(PageSigningSecret, secret),
      Layer.succeed(SandboxBankPage, config.mode === "sandbox")
    )
  }))

/** The sandbox server: every organisation on its own clock, moved by `/sandbox/simulator/advance`. */
export const makeSandboxServer = (config: ServerConfig, options: ServerOptions = {}) => makeModeServer({ ...config, mode: "sandbox" }, options)

/** The live server: the real clock, `/sandbox/` and `/scenario_simulators/` answer 403. */
export const makeLiveServer = (config: ServerConfig, options: ServerOptions = {}) => makeModeServer({ ...config, mode: "live" }, options)

/**
 * The whole server as one Layer: the database (migrated: store-sql's tables, then the server's),
 * the clock, the engine with the sandbox bank, the first-start organisation, and the API with the
 * server's own routes, listening on the port. Building it starts the server; releasing its scope
 * stops taking connections, lets the requests in flight finish (up to 20 seconds, the Node HTTP
 * server layer's default), then closes the database.
 */
export const makeServer = (config: ServerConfig, options: ServerOptions = {}): Layer.Layer<ServerServices, unknown> =>
  (config.mode === "sandbox" ? makeSandboxServer(config, options) : makeLiveServer(config, options)).pipe(
    Layer.provide(options.tracing === true ? Layer.empty : noSpans)
  )

/**
 * The server exports no traces, so it registers no spans: `effect/sql` opens one per statement,
 * and on PGlite that was about a tenth of a point read's time. `tracing: true` keeps Effect's
 * default, for a composition that adds a tracer.
 */
const noSpans = Layer.succeed(References.TracerEnabled, false)

/** The start-up lines: the organisation (and its token, the one time it exists in clear), then the address. */
const announce = (config: ServerConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const log = yield* ServerLog
    const boot = yield* Bootstrap
    const url = yield* serverUrl
    if (boot.accessToken !== undefined) {
      log({
        level: "info",
        msg: `${boot.organisation.environment} organisation created; its access token is shown this once`,
        organisation: boot.organisation.id,
        creditor: boot.creditor,
        access_token: boot.accessToken
      })
    }
    log({
      level: "info",
      msg: "listening",
      url: `http://${config.host}:${new URL(url).port}`,
      mode: config.mode,
      organisation: boot.organisation.id,
      database: describeDatabase(config.database),
      docs: "/docs",
      public_url: yield* publicUrlOf(config),
      connect_url: (yield* ConnectServer).publicUrl
    })
    // Released first: the server then stops accepting and waits for the requests in flight.
    yield* Effect.addFinalizer(() => Effect.sync(() => log({ level: "info", msg: "shutting down; finishing requests in flight" })))
  }))
