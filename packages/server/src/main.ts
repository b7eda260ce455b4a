import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import type { Server } from "node:http"
import { createBoundedServer, REQUEST_BODY_TIMEOUT_MS, REQUEST_HEADERS_TIMEOUT_MS } from "@paykit/http"
import { connectPortOf, type ServerConfig, serverConfig } from "./config.ts"
import { appOptionsOf, createPaykitApp, type PaykitApp } from "./paykit-app.ts"
import { describeDatabase, listeningUrl, publicUrlAt, tokenHint } from "./server.ts"
import { JsonLogger, ServerLog } from "./server-log.ts"
import { reportFailure } from "./start-failure.ts"

/**
 * `npm start`: `createPaykitApp` configured by the environment (PORT, HOST, PAYKIT_MODE,
 * PAYKIT_DATA_DIR, DATABASE_URL, PAYKIT_SANDBOX_TOKEN, docs/server.md), its API on a node:http
 * listener at PORT and its connect server (OAuth) on another, up until SIGINT or SIGTERM, on which
 * `runMain` interrupts it: the listeners close, requests in flight finish, then the app closes
 * (worker, pump, database). Every line it prints is one JSON object (`JsonLogger`); a start that
 * fails prints one line saying what to do and exits with 1 (`runMain`'s own report, Effect's
 * multi-line text, is turned off).
 */

const SHUTDOWN_TIMEOUT_MS = 20_000

/** A listener on `host:port` (0: a free one) with the request bounds, serving `app` there; its port. */
const listen = (app: Pick<PaykitApp, "attach">, host: string, port: number) =>
  new Promise<{ readonly server: Server; readonly port: number }>((resolve, reject) => {
    const server = createBoundedServer({ headersMs: REQUEST_HEADERS_TIMEOUT_MS, bodyMs: REQUEST_BODY_TIMEOUT_MS })
    app.attach(server)
    server.once("error", reject)
    server.listen(port, host, () => {
      const address = server.address()
      resolve({ server, port: typeof address === "object" && address !== null ? address.port : port })
    })
  })

/** Stops accepting connections and closes the idle ones; resolves once every connection ended. */
const stopListening = (server: Server) =>
  new Promise<void>((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeIdleConnections()
  })

/** The app and its two listeners; a listener that cannot open (the port taken) closes the app. */
const start = async (config: ServerConfig) => {
  // PORT is never 0 (`Config.Port`), so the pages' address is known before anything listens.
  const app = await createPaykitApp({ ...appOptionsOf(config, publicUrlAt(config, config.port)), connectBasePath: "", shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS })
  try {
    const api = await listen(app, config.host, config.port)
    const connect = await listen(app.connect, config.host, connectPortOf(config)).catch(async (error: unknown) => {
      await stopListening(api.server)
      throw error
    })
    return { app, api, connect }
  } catch (error) {
    await app.close()
    throw error
  }
}

type Started = Awaited<ReturnType<typeof start>>

/** The `listening` line: where the API and the connect server are, the organisation, and where its token comes from. */
const announce = (config: ServerConfig, { app, api, connect }: Started) =>
  Effect.gen(function*() {
    const log = yield* ServerLog
    log({
      level: "info",
      msg: "listening",
      url: `http://${config.host}:${api.port}`,
      mode: config.mode,
      organisation: app.organisation,
      organisation_name: app.organisationName,
      token: tokenHint(config, app.accessToken),
      database: describeDatabase(config.database),
      docs: "/docs",
      public_url: publicUrlAt(config, api.port),
      connect_url: config.connectUrl?.replace(/\/+$/, "") ?? listeningUrl("127.0.0.1", connect.port)
    })
  })

/** Stops taking connections and finishes the requests in flight (the app's `close` waits for them), then closes the app. */
const stop = ({ app, api, connect }: Started) =>
  Effect.gen(function*() {
    const log = yield* ServerLog
    log({ level: "info", msg: "shutting down; finishing requests in flight" })
    // The app's `close` bounds its own wait; a connection its client keeps open is given up at the same bound.
    yield* Effect.promise(() => Promise.all([stopListening(api.server), stopListening(connect.server), app.close()])).pipe(
      Effect.timeoutOrElse({ duration: SHUTDOWN_TIMEOUT_MS + 1_000, orElse: () => Effect.void })
    )
  })

const main = Effect.gen(function*() {
  const config = yield* Effect.tapCause(serverConfig, reportFailure(undefined))
  const started = yield* Effect.acquireRelease(
    Effect.tryPromise({ try: () => start(config), catch: (error) => error }),
    stop
  ).pipe(Effect.tapCause(reportFailure(config.database)))
  yield* announce(config, started)
  return yield* Effect.never
}).pipe(Effect.scoped)

NodeRuntime.runMain(main.pipe(Effect.provide(JsonLogger)), { disableErrorReporting: true })
