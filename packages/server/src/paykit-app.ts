import { ConfigProvider, Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { type Dispatcher, normaliseBasePath, REQUEST_BODY_TIMEOUT_MS, RequestLog, type RequestLogEntry, withinBasePath } from "@paykit/http"
import type { CitusRouting, CitusSetting } from "@paykit/store-sql"
import { Bootstrap } from "./bootstrap.ts"
import { type BankSetting, type ServerConfig, type ServerMode, serverConfig, type SettingName } from "./config.ts"
import { announceCreatedToken, makeEmbeddedServer, type Mount, PaykitDispatchers, type ServerOptions } from "./server.ts"
import { JsonLogger, ServerLog, type ServerLogLine, stdoutLog } from "./server-log.ts"
import { MetricsEndpoint } from "./metrics.ts"
import { startWorkerProcess } from "./worker-process.ts"

/**
 * `createPaykitApp`: paykit for a host that owns the port. The host hands requests to `fetch`
 * (web standard: Bun, Deno, Hono, any fetch-style framework) or `handleNode` (node:http, Express,
 * Connect, Fastify's raw request); docs/embedding-http.md shows each.
 */

/** The schema an embedded paykit keeps its tables in when none is given, away from the host's own. */
export const EMBEDDED_SCHEMA = "paykit"

/** The server's settings (docs/server.md), as typed options; each names the variable it stands for. */
export interface PaykitAppOptions {
  /** The path the host mounts paykit under (`"/paykit"`); absent, the root. */
  readonly basePath?: string
  /** `DATABASE_URL`: PostgreSQL. Absent, PGlite on `dataDir`, or in memory without it. */
  readonly databaseUrl?: string
  /** `PAYKIT_DATA_DIR`: PGlite's directory. */
  readonly dataDir?: string
  /**
   * `PAYKIT_DB_SCHEMA`: the schema paykit's tables live in (default `EMBEDDED_SCHEMA`); `null`:
   * the connection's own search path (`public`), as `npm start` without `PAYKIT_DB_SCHEMA`.
   */
  readonly schema?: string | null
  /** `PAYKIT_CITUS` (default auto): on a Citus coordinator with workers, the tables distributed by organisation. */
  readonly citus?: CitusSetting
  /** `PAYKIT_CITUS_ROUTING` (default on): on a Citus cluster, each organisation's work sent to the node holding its shards. */
  readonly citusRouting?: CitusRouting
  /** `PAYKIT_MODE` (default sandbox). */
  readonly mode?: ServerMode
  /** `PAYKIT_BANK` (default sandbox): `files` keeps the scheme files for a person to carry and takes reports posted back. */
  readonly bank?: BankSetting
  /** `PAYKIT_SANDBOX_TOKEN`: the first start's access token instead of a random one. */
  readonly sandboxToken?: string
  /**
   * `PAYKIT_PUBLIC_URL`: the origin people reach the host at (`https://shop.example.com`); the
   * pages' URLs are it and `basePath`. Default `http://localhost`.
   */
  readonly publicUrl?: string
  /**
   * The path the connect server (OAuth) answers under; default `basePath` + `/connect`, so one mount
   * serves both. Equal to `basePath`: only `connect`'s handlers serve it, on a listener of its own
   * (as `npm start`'s connect port).
   */
  readonly connectBasePath?: string
  /** `PAYKIT_ADMIN_SECRET`: a bearer that may make and remove sandbox organisations besides the sandbox organisation's token. */
  readonly adminSecret?: string
  /** `PAYKIT_CONNECT_URL`: where apps send users to the connect server. */
  readonly connectUrl?: string
  /** `PAYKIT_WEBHOOK_URL`, `PAYKIT_WEBHOOK_SECRET`, `PAYKIT_WEBHOOK_SECRET_KEY` (docs/webhooks.md). */
  readonly webhookUrl?: string
  readonly webhookSecret?: string
  readonly webhookSecretKey?: string
  /** `PAYKIT_EVENT_RETENTION_DAYS`. */
  readonly eventRetentionDays?: number
  /** `PAYKIT_REQUEST_LOG` (default on): whether each API request is stored, redacted, for the dashboard's logs page. */
  readonly storedRequestLog?: "on" | "off"
  /** `PAYKIT_WORKER_POLL_MS`, `PAYKIT_WORKER_LEASE_MS`. */
  readonly workerPollMs?: number
  readonly workerLeaseMs?: number
  /**
   * Where the due-work worker and the webhook pump run: `"in-process"` (default) in the host's
   * process; `"elsewhere"`: not here, because another paykit process on the same database (a
   * server started with `npm start`, or a `createPaykitApp` with the default) runs them;
   * `"worker-process"`: in a child process of the host's (`node:child_process` fork) on the same
   * database, stopped by `close` (PostgreSQL only: one process owns a PGlite database).
   */
  readonly dueWork?: "in-process" | "elsewhere" | "worker-process"
  /**
   * `PAYKIT_METRICS_PORT`: a listener of its own serving `GET /metrics` (Prometheus, docs/operations.md)
   * on `metricsHost` at this port (0: a free one), never the host's; absent, none. Its address is `metricsUrl`.
   */
  readonly metricsPort?: number
  /** The interface the metrics listener is on (`HOST` for `npm start`, 0.0.0.0 in a container); default 127.0.0.1. */
  readonly metricsHost?: string
  /** How long a client has to send a request's body (default `REQUEST_BODY_TIMEOUT_MS`); past it, 408. */
  readonly bodyTimeoutMs?: number
  /** How long `close` waits for requests in flight (default 20 seconds). */
  readonly shutdownTimeoutMs?: number
  /** Where paykit's own lines go (start-up, the token made at the first start); default JSON lines on stdout. */
  readonly log?: (line: ServerLogLine) => void
  /** Where the one line per request goes; default JSON lines on stdout. */
  readonly requestLog?: (entry: RequestLogEntry) => void
  /**
   * A tracer layer (`OtlpTracer.layer(...)` of `effect/observability`, or any layer that sets
   * Effect's `Tracer`): paykit's spans go there. Absent: exported over OTLP when the environment
   * names an endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`), else none made. docs/embedding-the-engine.md, "Traces".
   */
  readonly tracer?: Layer.Layer<never>
}

/** A handler a Node host calls: `next` (Express, Connect) takes what is outside the mount. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

export interface PaykitHandlers {
  readonly fetch: (request: Request) => Promise<Response>
  readonly handleNode: NodeHandler
  /** The prefix these handlers answer under. */
  readonly basePath: string
  /**
   * Serves every request of a node:http server that serves these handlers alone, at the root
   * (`basePath` empty; `npm start`'s listeners): the app's requests to the API only (the connect
   * server on a listener of its own, through `connect.attach`), and what Node cannot read as a
   * request (headers past their timeout, bytes that are not HTTP) answered with the API's error
   * body and logged. Throws under a prefix. The returned function stops it.
   */
  readonly attach: (server: Server) => () => void
}

export interface PaykitApp extends PaykitHandlers {
  /** The connect server (OAuth): its own handlers, also reached through the app's under `connectBasePath`. */
  readonly connect: PaykitHandlers
  /** The organisation this paykit serves (made at the first start). */
  readonly organisation: string
  /** That organisation's name. */
  readonly organisationName: string
  /** Where `GET /metrics` is served (`http://<metricsHost>:<port>/metrics`), with `metricsPort`; undefined otherwise. */
  readonly metricsUrl: string | undefined
  /** The worker process's pid, with `dueWork: "worker-process"`; undefined otherwise. */
  readonly workerPid: number | undefined
  /** The access token made at this start, the one time it exists in clear; undefined on later starts. */
  readonly accessToken: string | undefined
  /** Waits for the requests in flight, then stops the worker and the pump (and the worker process) and closes the storage; once. */
  readonly close: () => Promise<void>
}

/**
 * The options as the environment the server reads, so one definition (`serverConfig`) checks both;
 * keyed by `SERVER_SETTINGS`' names (a name outside the table does not type-check).
 */
export const environmentOf = (options: PaykitAppOptions): { readonly [K in SettingName]?: string | undefined } => ({
  PAYKIT_MODE: options.mode,
  PAYKIT_BANK: options.bank,
  DATABASE_URL: options.databaseUrl,
  PAYKIT_DATA_DIR: options.dataDir,
  PAYKIT_DB_SCHEMA: options.schema === null ? undefined : options.schema ?? EMBEDDED_SCHEMA,
  PAYKIT_CITUS: options.citus,
  PAYKIT_CITUS_ROUTING: options.citusRouting,
  PAYKIT_SANDBOX_TOKEN: options.sandboxToken,
  PAYKIT_ADMIN_SECRET: options.adminSecret,
  PAYKIT_CONNECT_URL: options.connectUrl,
  PAYKIT_WEBHOOK_URL: options.webhookUrl,
  PAYKIT_WEBHOOK_SECRET: options.webhookSecret,
  PAYKIT_WEBHOOK_SECRET_KEY: options.webhookSecretKey,
  PAYKIT_EVENT_RETENTION_DAYS: options.eventRetentionDays?.toString(),
  PAYKIT_REQUEST_LOG: options.storedRequestLog,
  PAYKIT_WORKER_POLL_MS: options.workerPollMs?.toString(),
  PAYKIT_WORKER_LEASE_MS: options.workerLeaseMs?.toString(),
  PAYKIT_METRICS_PORT: options.metricsPort?.toString(),
  // Nothing else of an embedded paykit listens: the host owns the API's port.
  HOST: options.metricsHost,
  // Checked as the server checks it; the origin is applied by the mount, not as a listener's URL.
  PAYKIT_PUBLIC_URL: options.publicUrl
})

/**
 * The options for a server's configuration (`npm start`: the environment, read by `serverConfig`)
 * whose pages are reached at `publicUrl`; `environmentOf`'s inverse, so the server and an embedder
 * start the same composition from the same settings.
 */
export const appOptionsOf = (config: ServerConfig, publicUrl: string): PaykitAppOptions => {
  const { database, webhooks } = config
  const endpoint = webhooks === undefined ? Option.none() : webhooks.endpoint
  const secretKey = webhooks === undefined ? Option.none() : webhooks.secretKey
  return {
    mode: config.mode,
    ...(config.bank === undefined ? {} : { bank: config.bank }),
    ...(database._tag === "Postgres" ? { databaseUrl: Redacted.value(database.url) } : database.dataDir === undefined ? {} : { dataDir: database.dataDir }),
    ...(database._tag === "Postgres" && database.citus !== undefined ? { citus: database.citus } : {}),
    ...(database._tag === "Postgres" && database.citusRouting !== undefined ? { citusRouting: database.citusRouting } : {}),
    schema: database.schema ?? null,
    ...(Option.isSome(config.sandboxToken) ? { sandboxToken: Redacted.value(config.sandboxToken.value) } : {}),
    ...(config.adminSecret !== undefined && Option.isSome(config.adminSecret) ? { adminSecret: Redacted.value(config.adminSecret.value) } : {}),
    publicUrl,
    ...(config.connectUrl === undefined ? {} : { connectUrl: config.connectUrl }),
    ...(Option.isSome(endpoint) ? { webhookUrl: endpoint.value.url, webhookSecret: Redacted.value(endpoint.value.secret) } : {}),
    ...(Option.isSome(secretKey) ? { webhookSecretKey: Redacted.value(secretKey.value) } : {}),
    ...(config.eventRetentionDays === undefined ? {} : { eventRetentionDays: config.eventRetentionDays }),
    ...(config.requestLog === undefined ? {} : { storedRequestLog: config.requestLog }),
    ...(config.worker?.pollMillis === undefined ? {} : { workerPollMs: config.worker.pollMillis }),
    ...(config.worker?.leaseMillis === undefined ? {} : { workerLeaseMs: config.worker.leaseMillis }),
    ...(config.metricsPort === undefined ? {} : { metricsPort: config.metricsPort, metricsHost: config.host })
  }
}

const configOf = (options: PaykitAppOptions): Effect.Effect<ServerConfig, unknown> =>
  Effect.map(Effect.provide(serverConfig, ConfigProvider.layer(ConfigProvider.fromEnvRecord(environmentOf(options)))), (config) =>
    // Neither a database URL nor a directory: PGlite in memory, not the server's default directory.
    options.databaseUrl === undefined && options.dataDir === undefined
      ? { ...config, database: { ...config.database, _tag: "Pglite", dataDir: undefined } }
      : config)

/** Which dispatcher a request target goes to: the first prefix it is under, else `fallback` with the target as given. */
interface Route {
  readonly prefix: string
  readonly dispatcher: Dispatcher
}

const routeOf = (routes: ReadonlyArray<Route>, target: string): { readonly dispatcher: Dispatcher; readonly target: string } | undefined => {
  for (const route of routes) {
    const within = withinBasePath(route.prefix, target)
    if (within !== undefined) return { dispatcher: route.dispatcher, target: within }
  }
  return undefined
}

/**
 * The two handlers over `routes`. A target under none of the prefixes goes to `next` when the
 * host gave one, else to `fallback` as it is: a host that strips its mount path (Express's
 * `app.use(path, …)` keeps it in `originalUrl`, which is read first; Hono's `mount`) hands the
 * path below the mount.
 */
const handlersOver = (routes: ReadonlyArray<Route>, fallback: Dispatcher, basePath: string, bodyMs: number): PaykitHandlers => ({
  basePath,
  attach: (server) => {
    // The dispatcher's own listener takes the target as it comes, which is right only at the root.
    if (basePath !== "") throw new Error(`attach serves a server at the root; paykit is mounted at ${basePath}: hand its requests to handleNode`)
    return fallback.attach(server, bodyMs)
  },
  fetch: (request) => {
    const url = new URL(request.url)
    const target = `${url.pathname}${url.search}`
    const routed = routeOf(routes, target) ?? { dispatcher: fallback, target }
    return routed.dispatcher.serveFetch(request, routed.target, bodyMs)
  },
  handleNode: (req, res, next) => {
    const url = req.url ?? "/"
    const original: unknown = Reflect.get(req, "originalUrl")
    const routed = routeOf(routes, typeof original === "string" ? original : url)
    if (routed !== undefined) return routed.dispatcher.serveNode(req, res, routed.target, bodyMs)
    if (next !== undefined) return next()
    fallback.serveNode(req, res, url, bodyMs)
  }
})

/** Paykit's lines to `log` (JSON on stdout by default), Effect's own logs among them (the worker's failures, webhook attempts). */
const logsLayer = (options: PaykitAppOptions) =>
  Layer.mergeAll(
    JsonLogger,
    options.log === undefined ? Layer.empty : Layer.succeed(ServerLog, options.log),
    options.requestLog === undefined ? Layer.empty : Layer.succeed(RequestLog, options.requestLog)
  )

/**
 * The running side of an app: its runtime (storage, worker unless elsewhere, first start), the
 * first start's dispatchers and organisation, and the worker process when there is one. A part
 * that fails closes what was started before it.
 */
const startRuntime = async (options: PaykitAppOptions, mount: Mount) => {
  const config = await Effect.runPromise(configOf(options))
  const serverOptions: ServerOptions = {
    runsDueWork: options.dueWork === undefined || options.dueWork === "in-process",
    ...(options.tracer === undefined ? {} : { tracer: options.tracer })
  }
  const runtime = ManagedRuntime.make(makeEmbeddedServer(config, serverOptions, mount).pipe(Layer.provideMerge(logsLayer(options))))
  const disposing = async (error: unknown): Promise<never> => {
    await runtime.dispose()
    throw error
  }
  const started = await runtime.runPromise(Effect.gen(function*() {
    yield* announceCreatedToken
    return { dispatchers: yield* PaykitDispatchers, boot: yield* Bootstrap, metrics: yield* MetricsEndpoint }
  })).catch(disposing)
  // Started once the first start's organisation exists, so the child finds it rather than racing to make it.
  const worker = options.dueWork === "worker-process" ? await startWorkerProcess(options, options.log ?? stdoutLog).catch(disposing) : undefined
  if (worker?.metricsUrl !== undefined) started.metrics.addWorker(worker.metricsUrl)
  return { runtime, ...started, worker }
}

/**
 * Starts paykit for a host: migrates the storage, makes the first start's organisation (its
 * token logged once, and returned as `accessToken`), starts the worker and the pump here (or, with
 * `dueWork: "worker-process"`, in a child process; `"elsewhere"`, not at all), and returns the
 * handlers. Nothing listens: the host serves them.
 */
export const createPaykitApp = async (options: PaykitAppOptions = {}): Promise<PaykitApp> => {
  if (options.dueWork === "worker-process" && options.databaseUrl === undefined) {
    throw new Error(`dueWork "worker-process" needs databaseUrl (PostgreSQL): a PGlite database is owned by one process, so its worker runs in the host's process ("in-process")`)
  }
  const basePath = normaliseBasePath(options.basePath)
  const connectBasePath = options.connectBasePath === undefined ? `${basePath}/connect` : normaliseBasePath(options.connectBasePath)
  const mount = { basePath, connectBasePath, publicOrigin: (options.publicUrl ?? "http://localhost").replace(/\/+$/, "") }
  const { runtime, dispatchers: { api, connect }, boot, metrics, worker } = await startRuntime(options, mount)
  const bodyMs = options.bodyTimeoutMs ?? REQUEST_BODY_TIMEOUT_MS
  const connectRoute = { prefix: connectBasePath, dispatcher: connect }
  // One close however many times it is called (a host's shutdown and its error path both may).
  let closing: Promise<void> | undefined
  return {
    ...handlersOver([...(connectBasePath === basePath ? [] : [connectRoute]), { prefix: basePath, dispatcher: api }], api, basePath, bodyMs),
    connect: handlersOver([connectRoute], connect, connectBasePath, bodyMs),
    organisation: boot.organisation.id,
    organisationName: boot.organisation.name,
    accessToken: boot.accessToken,
    workerPid: worker?.pid,
    metricsUrl: metrics.url,
    close: () => {
      closing ??= (async () => {
        const shutdownMs = options.shutdownTimeoutMs ?? 20_000
        const drained = Promise.all([api.drain(), connect.drain()])
        await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, shutdownMs).unref())])
        await worker?.stop(shutdownMs)
        await runtime.dispose()
      })()
      return closing
    }
  }
}
