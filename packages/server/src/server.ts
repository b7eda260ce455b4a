import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { mkdirSync } from "node:fs"
import { IdGenerator } from "@paykit/core"
import {
  DashboardBaseUrl, DEFAULT_EVENT_RETENTION_DAYS, DuePolling, type DueWorker, HostedPagesBaseUrl, type DueWorkDeclarations, type DueWorkSchedule, type DueWorkStore, retentionDueWork,
  FilesBank, retentionPolicy, RetentionStore, SandboxBank, WebhookDeliveries, webhookDueWork
} from "@paykit/engine"
import { type AccessTokens, ApiDispatcher, ApiPublicUrl, apiEngineOn, type Dispatcher, IDEMPOTENCY_KEY_LIFETIME_MS, type IdempotencyStore, apiDispatcher, ApiExamples, makeHttpAppWith, hostedPagesKeyLayer, PageSigningSecret, paykitRoutes, requestLogWriterLayer, type RequestLogStore, SandboxBankPage, serveHttpApp, type ServeOptions, serverUrl } from "@paykit/http"
import {
  CitusSetting, migratedPgliteClient, MoreMigrations, PgliteClient, pgliteInSchema, type PgliteTemplateOptions, postgresClient, RetentionSql, SqlStorage,
  storageMaintenance, WebhookOutboxSql
} from "@paykit/store-sql"
import { Bootstrap, BootstrapLive } from "./bootstrap.ts"
import { connectPortOf, type Database, type ServerConfig } from "./config.ts"
import { withDashboard } from "./dashboard/index.ts"
import { dataDirLock } from "./data-dir-lock.ts"
import { SERVER_MIGRATION_SET } from "./migrations/index.ts"
import { oauthAppRoutes } from "./oauth/app-routes.ts"
import { ConnectServer, connectRoutes, connectServerLayer } from "./oauth/connect-server.ts"
import { OAuthStore } from "./oauth/store.ts"
import { Organisations } from "./organisations.ts"
import { rootRoute } from "./root-page.ts"
import { dueWorkerLayer, ensureDailyRuns, ensureStorageMaintenance, pollDueWork, type WorkerTiming } from "./due-work.ts"
import { sandboxOrganisationRoutes } from "./sandbox-organisations.ts"
import { liveSandboxRoutes, sandboxRoutes } from "./sandbox-routes.ts"
import { liveScenarioRoutes, scenarioRoutes } from "./scenario-routes.ts"
import { ServerLog } from "./server-log.ts"
import { SqlAccessTokens } from "./sql-access-tokens.ts"
import { SqlIdempotencyStore } from "./sql-idempotency.ts"
import { presentOrganisations, SqlRequestLog } from "./sql-request-log.ts"
import { RequestLogUpkeep, requestLogThread, threadOptionsFor } from "./request-log-thread/thread-store.ts"
import { requestLogRoutes } from "./request-log-routes.ts"
import { type RateLimitsOf, specRateLimits, sqlRateLimiter } from "./sql-rate-limit.ts"
import { ClockAdvanceLock } from "./clock-lock.ts"
import { webhookKeyCheck } from "./key-check.ts"
import { serverSecretKey, webhookSecretKeyLayer, webhookSenderLayer, webhookTrustLayer } from "./webhook-setup.ts"
import { loadExamples } from "./reference-examples.ts"
import { tracingLayer } from "./tracing/tracing-layer.ts"
import { listeningUrl } from "./listening-url.ts"
import { healthRoutes } from "./health.ts"
import { metricsListener, type MetricsEndpoint, metricsRegistry } from "./metrics.ts"

/** A PGlite client on `dataDir`, searching `schema` when one is named. */
const pgliteClient = (dataDir: string, schema: string | undefined) =>
  schema === undefined ? PgliteClient.layer({ dataDir }) : pgliteInSchema({ dataDir }, schema)

/**
 * The migrated template of the server's in-memory databases (`migratedPglite` of store-sql):
 * store-sql's tables and the server's (`SERVER_MIGRATION_SET`, as `serverStorage` migrates them),
 * in `schema`; `cacheDir` keeps it for the next process (the server tests' run makes one).
 */
export const serverTemplateOptions = (schema: string | undefined, cacheDir?: string): PgliteTemplateOptions => ({
  schema,
  more: [SERVER_MIGRATION_SET],
  ...(cacheDir === undefined ? {} : { cacheDir })
})

/**
 * The database client the configuration names: PostgreSQL at `DATABASE_URL`, else PGlite on its
 * data directory; in the configured schema (created if missing), else on the connection's own
 * search path.
 */
export const sqlClientLayer = (database: Database): Layer.Layer<SqlClient.SqlClient, unknown> => {
  if (database._tag === "Postgres") return postgresClient(database.url, { schema: database.schema, maxConnections: 10, citus: database.citus, routing: database.citusRouting })
  const dataDir = database.dataDir
  // In memory: the process's first database is migrated and kept as the template of the next ones.
  if (dataDir === undefined) return migratedPgliteClient(serverTemplateOptions(database.schema))
  return Layer.unwrap(Effect.sync(() => {
    // PGlite makes its directory but not the parents (`./.paykit` on a fresh clone).
    mkdirSync(dataDir, { recursive: true })
    // Taken before PGlite opens the directory and released after it closes it.
    return pgliteClient(dataDir, database.schema).pipe(Layer.provide(dataDirLock(dataDir)))
  }))
}

/** The database as the `listening` line names it (no credentials). */
export const describeDatabase = (database: Database): string => {
  const where = database._tag === "Postgres" ? "postgresql (DATABASE_URL)" : database.dataDir === undefined ? "pglite (in memory)" : `pglite ${database.dataDir}`
  return database.schema === undefined ? where : `${where}, schema ${database.schema}`
}

/** What a running server offers its embedder and its tests, in both modes. */
export type ServerServices =
  | Bootstrap
  | HttpServer.HttpServer
  | SqlClient.SqlClient
  | AccessTokens
  | IdempotencyStore
  | RequestLogStore
  | Organisations
  | DueWorker
  | DuePolling
  | DueWorkStore
  | DueWorkSchedule
  | OAuthStore
  | ConnectServer
  | MetricsEndpoint

export interface ServerOptions {
  /** Replaces the configured database (tests pass an in-memory PGlite or one on a temporary directory). */
  readonly sqlClient?: Layer.Layer<SqlClient.SqlClient, unknown>
  /**
   * True: spans (each request, engine operation, SQL statement, due item and webhook attempt) go to
   * the tracer the embedder provides around the server's layer. Off by default, unless `tracer` is
   * given or the environment names an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`; docs/operations.md, "Traces").
   */
  readonly tracing?: boolean
  /** A tracer layer of the embedder's own (`OtlpTracer.layer(...)`, any that sets Effect's `Tracer`): the spans go there. */
  readonly tracer?: Layer.Layer<never>
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
  /**
   * False: this process runs no due work (the daily run, webhook deliveries, retention); another
   * process on the same database does. Default true.
   */
  readonly runsDueWork?: boolean
  /**
   * Each rate-limit group's limit a minute, when not the spec's: a benchmark that repeats one POST
   * raises it past its volume, so its run measures creations rather than 429s.
   */
  readonly rateLimits?: RateLimitsOf
}

/**
 * The storage with the server's tables: store-sql's migrations then the server's, at start-up (on a
 * Citus coordinator, distributed together: docs/storage.md, "Citus").
 */
export const serverStorage = (database: Database) =>
  SqlStorage.pipe(
    Layer.provide(Layer.succeed(MoreMigrations, [SERVER_MIGRATION_SET])),
    Layer.provide(Layer.succeed(CitusSetting, database._tag === "Postgres" ? database.citus ?? "auto" : "auto"))
  )

/**
 * The stored request log: on PGlite, a database of its own in a thread of its own (`request-log-thread/`,
 * beside an on-disk data directory in its `request-log` sub-directory); on PostgreSQL and Citus, the
 * server's database (`SqlRequestLog`), which is another process already.
 */
const requestLogStorage: Layer.Layer<RequestLogStore | RequestLogUpkeep, never, SqlClient.SqlClient> = Layer.unwrap(Effect.map(
  Effect.serviceOption(PgliteClient.PgliteClient),
  (pglite) => Option.isSome(pglite)
    ? requestLogThread(threadOptionsFor(pglite.value.pglite.dataDir), presentOrganisations(pglite.value))
    : Layer.merge(SqlRequestLog, RequestLogUpkeep.inServerDatabase)
))

/** Organisation removal and retention, reaching the request log too where it is not in the server's database. */
const withRequestLogUpkeep = Layer.effectContext(Effect.gen(function*() {
  const organisations = yield* Organisations
  const retention = yield* RetentionStore
  const upkeep = yield* RequestLogUpkeep
  return Context.make(Organisations, Organisations.of({
    ...organisations,
    remove: (id, detach) => Effect.tap(organisations.remove(id, detach), (removed) => removed ? upkeep.removeOrganisation(id) : Effect.void)
  })).pipe(Context.add(RetentionStore, RetentionStore.of({
    prune: (organisation, cutoffs, limit) =>
      Effect.zipWith(retention.prune(organisation, cutoffs, limit), upkeep.prune(organisation, new Date(cutoffs.eventsBefore).toISOString(), limit), Math.max)
  })))
}))

const pieces = (config: ServerConfig, options: ServerOptions) => {
  const database = serverStorage(config.database).pipe(
    Layer.provideMerge(options.sqlClient ?? sqlClientLayer(config.database))
  )
  const ports = Layer.mergeAll(
    SqlAccessTokens,
    SqlIdempotencyStore,
    OAuthStore.layerSql,
    // Windows in the database, on real time: shared by every process on it.
    sqlRateLimiter(options.rateLimits ?? specRateLimits),
    ClockAdvanceLock.layer,
    withRequestLogUpkeep.pipe(Layer.provide(Layer.merge(Organisations.layerSql, RetentionSql)), Layer.provideMerge(requestLogStorage))
  )
  return {
    database,
    ports,
    externals: Layer.mergeAll(
      config.bank === "files" ? FilesBank : SandboxBank,
      IdGenerator.layer,
      webhookSecretKeyLayer(config.database, config.webhooks),
      webhookSenderLayer(config.mode, options.webhookTimeoutMs)
    ),
    // The key is checked against the database before the first start's work and before any polling.
    boot: BootstrapLive({ mode: config.mode, sandboxToken: config.sandboxToken, webhooks: config.webhooks }).pipe(
      Layer.provideMerge(webhookKeyCheck(config.database, config.webhooks))
    ),
    timing: { ...config.worker, ...options.worker },
    retention: retentionPolicy(config.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS, IDEMPOTENCY_KEY_LIFETIME_MS),
    dueWork: options.dueWork ?? [],
    listen: { port: config.port, host: config.host, ...options.serve }
  }
}

/**
 * Paykit without a listener, in either mode: the engine on SQL, the due-work worker (the daily run
 * and the extra declarations, each organisation on its own clock, which is real time in live
 * mode) and the first start. The worker starts polling once the first start's organisation exists
 * and every organisation has its daily run (unless `runsDueWork` is false), and stops with the layer.
 */
const makeFoundation = (config: ServerConfig, options: ServerOptions) => {
  const { database, ports, externals, boot, timing, dueWork, retention } = pieces(config, options)
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
    Layer.provideMerge(Layer.merge(deliveries, DuePolling.layer))
  )
  const polling = options.runsDueWork === false ? Layer.empty : pollDueWork(timing)
  // The stored request log's writer, which the dispatchers hand each answered request (`PAYKIT_REQUEST_LOG=off`: none).
  const recording = config.requestLog === "off" ? Layer.empty : requestLogWriterLayer
  // The metrics listener (PAYKIT_METRICS_PORT) opens once the worker exists: its gauges name the worker's kinds.
  const metrics = metricsListener(config.host, config.metricsPort)
  return Layer.mergeAll(polling, recording, metrics, Layer.effectDiscard(ensureDailyRuns), Layer.effectDiscard(ensureStorageMaintenance)).pipe(
    Layer.provideMerge(boot.pipe(Layer.provideMerge(services)))
  )
}

/** The API's dispatcher in `config`'s mode: the API's routes, the mode's `/sandbox/` and scenario routes, the server's own, the pages. */
const apiRoutesLayer = <A, E, R>(config: ServerConfig, pages: Layer.Layer<A, E, R>) => {
  const sandbox = config.mode === "sandbox" ? sandboxRoutes : liveSandboxRoutes
  const scenarios = config.mode === "sandbox" ? scenarioRoutes : liveScenarioRoutes
  // A live server has none: its `/sandbox/*` answers 403 (`liveSandboxRoutes`).
  const organisations = config.mode === "sandbox" ? sandboxOrganisationRoutes(config.adminSecret ?? Option.none()) : Effect.succeed([])
  const api = makeHttpAppWith(apiDispatcher(paykitRoutes, sandbox, scenarios, organisations, oauthAppRoutes, requestLogRoutes, rootRoute(config.mode), healthRoutes))
  return withDashboard(config.mode).pipe(Layer.provide(api), Layer.provide(pages))
}

/** The server in either mode: the foundation, with the API and the connect server (OAuth) each on its own port. */
const makeModeServer = (config: ServerConfig, options: ServerOptions) => {
  const { listen } = pieces(config, options)
  const pages = pagesLayer(config, publicUrlOf(config))
  // The connect server (OAuth) listens beside the API, on the same host, stores and pages' secret.
  const connect = connectServerLayer(config.mode, { ...listen, port: connectPortOf(config) }, config.connectUrl, pages)
  return announce(config).pipe(
    Layer.provideMerge(Layer.merge(serveHttpApp(apiRoutesLayer(config, pages), listen), connect).pipe(Layer.provideMerge(makeFoundation(config, options))))
  )
}

/** The two request handlers of a paykit a host serves itself: the API's, and the connect server's (OAuth). */
export class PaykitDispatchers extends Context.Service<PaykitDispatchers, {
  readonly api: Dispatcher
  readonly connect: Dispatcher
}>()("@paykit/server/PaykitDispatchers") {}

/** Where a host mounts paykit: the API's and the connect server's prefixes (normalised), and the origin people reach the host at. */
export interface Mount {
  readonly basePath: string
  readonly connectBasePath: string
  readonly publicOrigin: string
}

/**
 * Paykit for a host that owns the listener (`createPaykitApp`): the foundation and both
 * dispatchers, mounted at their prefixes; the pages' URLs are the public origin and the prefix.
 */
export const makeEmbeddedServer = (config: ServerConfig, options: ServerOptions, mount: Mount): Layer.Layer<EmbeddedServices, unknown> => {
  const pages = pagesLayer(config, Effect.succeed(`${mount.publicOrigin}${mount.basePath}`))
  const dispatchers = Layer.effect(PaykitDispatchers, Effect.gen(function*() {
    const api = Context.get(yield* Layer.build(apiRoutesLayer(config, pages)), ApiDispatcher)
    const connect = Context.get(yield* Layer.build(apiDispatcher(connectRoutes(config.mode)).pipe(Layer.provide(pages))), ApiDispatcher)
    return PaykitDispatchers.of({ api: api.mountedAt(mount.basePath), connect: connect.mountedAt(mount.connectBasePath) })
  }))
  return dispatchers.pipe(Layer.provideMerge(makeFoundation(config, options)), Layer.provide(observation(options)))
}

/** What an embedded paykit offers its host: the running foundation and its two dispatchers. */
export type EmbeddedServices = Exclude<ServerServices, HttpServer.HttpServer | ConnectServer> | PaykitDispatchers

export { listeningUrl } from "./listening-url.ts"

/** Where people reach a server listening on `port`: `PAYKIT_PUBLIC_URL`, else the address it listens on. */
export const publicUrlAt = (config: Pick<ServerConfig, "host" | "publicUrl">, port: number): string =>
  config.publicUrl !== undefined ? config.publicUrl.replace(/\/+$/, "") : listeningUrl(config.host, port)

/** `publicUrlAt` the port `HttpServer` listens on. */
export const publicUrlOf = (config: Pick<ServerConfig, "host" | "publicUrl">): Effect.Effect<string, never, HttpServer.HttpServer> =>
  Effect.map(HttpServer.HttpServer, (server) =>
    server.address._tag === "UnixPathAddress" && config.publicUrl === undefined
      ? `http://unix:${server.address.path}`
      : publicUrlAt(config, server.address._tag === "UnixPathAddress" ? 0 : server.address.port))

/**
 * What the pages read of the server: the engine's URL bases (`HostedPagesBaseUrl`,
 * `DashboardBaseUrl`) set to the public URL, the secret their CSRF key and the payer's page
 * URLs' key come from (the server's key, so every process on one store takes the others' forms
 * and serves the others' URLs), whether the sandbox
 * bank's page acts (a sandbox server's; a live server's payers authorise at their real banks).
 */
const pagesLayer = <R>(config: ServerConfig, publicUrl: Effect.Effect<string, never, R>) =>
  Layer.unwrap(Effect.gen(function*() {
    const url = yield* publicUrl
    const secret = yield* serverSecretKey(config.database, config.webhooks)
    return Layer.mergeAll(
      Layer.succeed(HostedPagesBaseUrl, url),
      Layer.succeed(DashboardBaseUrl, url),
      Layer.succeed(PageSigningSecret, secret),
      hostedPagesKeyLayer(secret),
      Layer.succeed(SandboxBankPage, config.mode === "sandbox"),
      Layer.succeed(ApiPublicUrl, url),
      Layer.succeed(ApiExamples, loadExamples())
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
    Layer.provide(observation(options))
  )

/** What every composition of the server runs under: its own metric registry, and the tracer's setting (`tracingLayer`: without a tracer to export to, no spans). */
const observation = (options: ServerOptions) => Layer.merge(metricsRegistry, tracingLayer(options))

/** The first start's line: the organisation made, and its token, the one time it exists in clear. */
export const announceCreatedToken = Effect.gen(function*() {
  const log = yield* ServerLog
  const boot = yield* Bootstrap
  if (boot.accessToken === undefined) return
  log({
    level: "info",
    msg: `${boot.organisation.environment} organisation created; its access token is shown this once`,
    organisation: boot.organisation.id,
    creditor: boot.creditor,
    access_token: boot.accessToken
  })
})

/**
 * Where the caller's token is, on the `listening` line: no token is stored in clear, so a restart
 * cannot print the first start's again; it says where one comes from instead.
 */
export const tokenHint = (config: ServerConfig, accessToken: string | undefined): string =>
  accessToken !== undefined
    ? "access_token on the line above, shown this once"
    : config.mode === "sandbox" && Option.isSome(config.sandboxToken)
    ? "the one in PAYKIT_SANDBOX_TOKEN"
    : `the one printed at the first start; or ${config.mode === "sandbox" ? "set PAYKIT_SANDBOX_TOKEN and restart, or " : ""}run \`npm run token\` (${config.database._tag === "Pglite" ? "with the server stopped" : "beside the server"}) to mint a new one, printed once`

/** The start-up lines: the organisation (and its token, the one time it exists in clear), then the address. */
const announce = (config: ServerConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const log = yield* ServerLog
    const boot = yield* Bootstrap
    const url = yield* serverUrl
    yield* announceCreatedToken
    log({
      level: "info",
      msg: "listening",
      url: `http://${config.host}:${new URL(url).port}`,
      mode: config.mode,
      bank: config.bank ?? "sandbox",
      organisation: boot.organisation.id,
      organisation_name: boot.organisation.name,
      token: tokenHint(config, boot.accessToken),
      database: describeDatabase(config.database),
      docs: "/docs",
      public_url: yield* publicUrlOf(config),
      connect_url: (yield* ConnectServer).publicUrl
    })
    // Released first: the server then stops accepting and waits for the requests in flight.
    yield* Effect.addFinalizer(() => Effect.sync(() => log({ level: "info", msg: "shutting down; finishing requests in flight" })))
  }))
