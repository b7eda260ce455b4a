import { Context, Duration, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { NodeHttpServer } from "@effect/platform-node"
import type { Server } from "node:http"
import { DashboardBaseUrl, HostedPagesBaseUrl, HostedPagesKey } from "@paykit/engine"
import { AccessTokens } from "./access-tokens.ts"
import { paykitRoutes } from "./api.ts"
import { ApiDispatcher, makeDispatcher } from "./dispatcher.ts"
import { makeGateway } from "./gateway.ts"
import { IdempotencyStore } from "./idempotency.ts"
import { documentationBaseOf } from "./error-response.ts"
import { apiPages } from "./pages.ts"
import { ApiPublicUrl } from "./reference.ts"
import { ApiExamples } from "./reference-examples.ts"
import { hostedPages } from "./pages/index.ts"
import { RateLimiter } from "./rate-limit.ts"
import { DefectLog, RequestLog } from "./request-log.ts"
import { CurrentRequestRecorder } from "./stored-log/writer.ts"
import { createBoundedServer, REQUEST_BODY_TIMEOUT_MS, REQUEST_HEADERS_TIMEOUT_MS, type RequestTimeouts } from "./request-bounds.ts"
import { type AnyRoute, makeRouter } from "./routes.ts"

/**
 * A dispatcher for the routes of one or more route tables, each bound to its services
 * (`bindRoutes`; for the API, `paykitRoutes`, its rooms over the engine; pages, `pageRoute`), behind the gateway
 * over this package's three ports (`AccessTokens`, `IdempotencyStore`, `RateLimiter`).
 */
export const apiDispatcher = <const Tables extends ReadonlyArray<Effect.Effect<ReadonlyArray<AnyRoute>, unknown, unknown>>>(...tables: Tables) => {
  // `all` of a generic tuple does not resolve its type here; its elements' errors and services are these.
  const sets = Effect.all(tables) as Effect.Effect<ReadonlyArray<ReadonlyArray<AnyRoute>>, Effect.Error<Tables[number]>, Effect.Services<Tables[number]>>
  return dispatcherOver(Effect.map(sets, (all) => all.flat()))
}

const dispatcherOver = <E, R>(routes: Effect.Effect<ReadonlyArray<AnyRoute>, E, R>) =>
  Layer.effect(
    ApiDispatcher,
    Effect.gen(function*() {
      const router = makeRouter(yield* routes)
      const gateway = makeGateway({ tokens: yield* AccessTokens, idempotency: yield* IdempotencyStore, limiter: yield* RateLimiter })
      return makeDispatcher({
        router,
        gateway,
        // Handlers took their services when built, so requests run without them: a request's
        // context holds what is read per call (the clock, the engine's References).
        context: trimmed(yield* Effect.context<never>()),
        log: yield* RequestLog,
        recorder: yield* CurrentRequestRecorder,
        reportDefect: yield* DefectLog,
        documentationBase: documentationBaseOf(yield* ApiPublicUrl)
      })
    })
  )

export const ApiDispatcherLive = apiDispatcher(paykitRoutes)

/**
 * The HTTP application: every route of the API and its pages (`/openapi.json`, `/docs`), one
 * dispatcher, as a Layer that needs the engine's repositories and services plus the three ports
 * of this package. `@paykit/server` provides those from its storage adapter; tests provide the
 * in-memory ones. Serve it with `serveHttpApp`.
 */
export const makeHttpApp = () => makeHttpAppWith(ApiDispatcherLive)

/**
 * As `makeHttpApp`, with the API served by `dispatcher` (`apiDispatcher` over route tables of
 * one's own), the API's pages and the pages for people (`hostedPages`, over the engine's services).
 */
export const makeHttpAppWith = <E, R>(dispatcher: Layer.Layer<ApiDispatcher, E, R>) =>
  Layer.effect(ApiDispatcher, Effect.gen(function*() {
    const built = yield* ApiDispatcher
    return built.withRoutes([...apiPages(built.routes, yield* ApiPublicUrl, yield* ApiExamples), ...yield* hostedPages])
  })).pipe(Layer.provide(dispatcher))

/**
 * The services a request never reads from the server's context: the engine's repositories and
 * services and this package's ports are captured when routes are bound. Left in, every request's
 * context would carry all of them. The engine's References (configuration with defaults) stay:
 * services read those per call.
 */
const capturedAtBuild = (key: string): boolean =>
  (key.startsWith("@paykit/engine/") && !ENGINE_REFERENCES.has(key)) ||
  key === "@paykit/http/AccessTokens" || key === "@paykit/http/IdempotencyStore" || key === "@paykit/http/RateLimiter" ||
  key === ApiDispatcher.key

const ENGINE_REFERENCES: ReadonlySet<string> = new Set([HostedPagesBaseUrl.key, HostedPagesKey.key, DashboardBaseUrl.key])

const trimmed = <S>(context: Context.Context<S>): Context.Context<S> =>
  Context.makeUnsafe(new Map([...context.mapUnsafe].filter(([key]) => !capturedAtBuild(key))))

export interface ServeOptions {
  readonly port: number
  readonly host?: string
  /** How long a shutdown waits for requests in flight (default 20 seconds). */
  readonly gracefulShutdownTimeout?: Duration.Input
  /** How long a client has to send a request's headers (default `REQUEST_HEADERS_TIMEOUT_MS`); past it, 408. */
  readonly headersTimeout?: Duration.Input
  /** How long a client has to send a request's body after its headers (default `REQUEST_BODY_TIMEOUT_MS`); past it, 408. */
  readonly bodyTimeout?: Duration.Input
}

const timeoutsOf = (options: ServeOptions): RequestTimeouts => ({
  headersMs: options.headersTimeout === undefined ? REQUEST_HEADERS_TIMEOUT_MS : Duration.toMillis(options.headersTimeout),
  bodyMs: options.bodyTimeout === undefined ? REQUEST_BODY_TIMEOUT_MS : Duration.toMillis(options.bodyTimeout)
})

/**
 * Serves an app built by `makeHttpApp` (or any layer with an `ApiDispatcher`) on `port` (0 picks a
 * free one; read it from `HttpServer`): its dispatcher takes every request the server receives.
 * Closing the layer's scope stops accepting connections and waits for the requests in flight, up
 * to `gracefulShutdownTimeout`.
 */
export const serveHttpApp = <A, E, R>(app: Layer.Layer<A | ApiDispatcher, E, R>, options: ServeOptions) => {
  const listen = { port: options.port, ...(options.host === undefined ? {} : { host: options.host }), disablePreemptiveShutdown: true }
  const timeouts = timeoutsOf(options)
  // The Node server is created here, not by NodeHttpServer, so the dispatcher takes its requests.
  return Layer.unwrap(Effect.sync(() => {
    const server = createBoundedServer(timeouts)
    const serving = Layer.effectDiscard(Effect.gen(function*() {
      const dispatcher = yield* ApiDispatcher
      const detach = dispatcher.attach(server, timeouts.bodyMs)
      yield* Effect.addFinalizer(() => shutdown(server, dispatcher, options).pipe(Effect.ensuring(Effect.sync(detach))))
    }))
    return serving.pipe(Layer.provideMerge(app), Layer.provideMerge(NodeHttpServer.layer(() => server, listen)))
  }))
}

/** Stops accepting connections, then waits for every request in flight. */
const shutdown = (server: Server, dispatcher: ApiDispatcher["Service"], options: ServeOptions): Effect.Effect<void> =>
  Effect.timeoutOrElse(
    Effect.all([
      Effect.callback<void>((resume) => {
        if (!server.listening) return resume(Effect.void)
        server.close(() => resume(Effect.void))
        server.closeIdleConnections()
      }),
      Effect.promise(() => dispatcher.drain())
    ], { concurrency: 2, discard: true }),
    { duration: options.gracefulShutdownTimeout ?? Duration.seconds(20), orElse: () => Effect.void }
  )

/** The base URL of a served app, on the loopback interface. */
export const serverUrl: Effect.Effect<string, never, HttpServer.HttpServer> = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? `http://unix:${server.address.path}` : `http://127.0.0.1:${server.address.port}`
)
