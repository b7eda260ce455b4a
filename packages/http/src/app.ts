import { ByteSize, Cause, Clock, Context, Duration, Effect, Layer, Option, Scope, type Types } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { OpenApi } from "effect/http-api"
import { NodeHttpServer } from "@effect/platform-node"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { DashboardBaseUrl, HostedPagesBaseUrl } from "@paykit/engine"
import { AccessTokens } from "./access-tokens.ts"
import { engineServices, PAYKIT_ROUTES, PaykitApi } from "./api.ts"
import { toHttpServerResponse } from "./api-response.ts"
import { ApiDispatcher, makeDispatcher } from "./dispatcher.ts"
import { renderDocsPage } from "./docs-page.ts"
import { errorResponse, PROTOCOL_REASONS, usage } from "./error-response.ts"
import { pathnameOf } from "./api-request.ts"
import { makeGateway } from "./gateway.ts"
import { IdempotencyStore } from "./idempotency.ts"
import { RateLimiter } from "./rate-limit.ts"
import { DefectLog, defectAnswer, logAnswer, RequestLog } from "./request-log.ts"
import {
  bodyTooLarge,
  boundBody,
  createBoundedServer,
  declaresTooLarge,
  REQUEST_BODY_MAX_BYTES,
  REQUEST_BODY_TIMEOUT_MS,
  REQUEST_HEADERS_TIMEOUT_MS,
  refuseClientErrors,
  type RequestTimeouts,
  writeRefusal
} from "./request-bounds.ts"
import { CurrentRequestId, REQUEST_ID_HEADER } from "./request-context.ts"
import { bindRoutes, makeRouter, type Route } from "./routes.ts"

/**
 * A dispatcher for the routes of one or more route tables, each bound to its services
 * (`bindRoutes`; for the API, `paykitRoutes` over the engine), behind the gateway over this
 * package's three ports (`AccessTokens`, `IdempotencyStore`, `RateLimiter`).
 */
export const apiDispatcher = <const Tables extends ReadonlyArray<Effect.Effect<ReadonlyArray<Route>, unknown, unknown>>>(...tables: Tables) => {
  // `all` of a generic tuple does not resolve its type here; its elements' errors and services are these.
  const sets = Effect.all(tables) as Effect.Effect<ReadonlyArray<ReadonlyArray<Route>>, Effect.Error<Tables[number]>, Effect.Services<Tables[number]>>
  return dispatcherOver(Effect.map(sets, (all) => all.flat()))
}

const dispatcherOver = <E, R>(routes: Effect.Effect<ReadonlyArray<Route>, E, R>) =>
  Layer.effect(
    ApiDispatcher,
    Effect.gen(function*() {
      const router = makeRouter(yield* routes)
      const gateway = makeGateway({ tokens: yield* AccessTokens, idempotency: yield* IdempotencyStore, limiter: yield* RateLimiter })
      return makeDispatcher({
        router,
        gateway,
        // Handlers took their services when built, so requests run without them, as the router's
        // do: a request's context holds what is read per call (the clock, the engine's References).
        context: trimmed(yield* Effect.context<never>()),
        log: yield* RequestLog,
        reportDefect: yield* DefectLog
      })
    })
  )

/** The API's route table bound to the engine's services. */
export const paykitRoutes = bindRoutes(PAYKIT_ROUTES, engineServices)

export const ApiDispatcherLive = apiDispatcher(paykitRoutes)

/**
 * The HTTP application: every route of the API (the dispatcher), `/openapi.json` and the `/docs`
 * page, as a Layer that needs the engine's repositories and services plus the three ports of this
 * package. `@paykit/server` provides those from its storage adapter; tests provide the in-memory
 * ones. Serve it with `serveHttpApp`.
 */
export const makeHttpApp = () => makeHttpAppWith(ApiDispatcherLive)

/** As `makeHttpApp`, with the API served by `dispatcher` (`apiDispatcher` over a handler table of one's own). */
export const makeHttpAppWith = <E, R>(dispatcher: Layer.Layer<ApiDispatcher, E, R>) => {
  const docs = HttpRouter.add("GET", "/docs", Effect.sync(() => HttpServerResponse.html(renderDocsPage())))
  let openApi: HttpServerResponse.HttpServerResponse | undefined
  const openApiRoute = HttpRouter.add("GET", "/openapi.json", Effect.sync(() => (openApi ??= HttpServerResponse.jsonUnsafe(OpenApi.fromApi(PaykitApi)))))
  return Layer.mergeAll(dispatcher, docs, openApiRoute, HttpRouter.middleware(
      // Everything is caught, but the router's contract types the result as able to fail.
      (app): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> => outerMiddleware(app),
      { global: true }
    ))
}

const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((r) =>
    Cause.isFailReason(r) && typeof r.error === "object" && r.error !== null && "reason" in r.error &&
    typeof r.error.reason === "object" && r.error.reason !== null && "_tag" in r.error.reason &&
    r.error.reason._tag === "RouteNotFound"
  )

/**
 * The outermost middleware: gives the request its id (the `X-Request-Id` header and the
 * `request_id` of error bodies), answers unknown routes with the spec's 404 body and defects with
 * a 500 body that reveals nothing, and writes one log line per request.
 */
export const outerMiddleware = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const exchange = { requestId: randomUUID(), started: performance.now(), method: request.method, path: pathnameOf(request.url) }
    const requestId = exchange.requestId
    return app.pipe(
      Effect.provideService(CurrentRequestId, requestId),
      Effect.catchCause((cause) =>
        isRouteNotFound(cause)
          ? Effect.map(Clock.currentTimeMillis, (now) =>
            toHttpServerResponse(errorResponse(usage(404, PROTOCOL_REASONS.pathNotFound, `No route for ${exchange.method} ${exchange.path}`), requestId, now)))
          : Effect.map(DefectLog, (report) => toHttpServerResponse(defectAnswer(report, requestId, cause)))
      ),
      Effect.flatMap((response) =>
        Effect.map(RequestLog, (log) => {
          logAnswer(log, exchange, response.status)
          return HttpServerResponse.setHeader(response, REQUEST_ID_HEADER, requestId)
        })
      )
    )
  })

/**
 * The services a request served by Effect's router never reads from the server's context: the
 * engine's repositories and services and this package's ports are captured when routes are built.
 * Left in, every such request's context would carry (and, on the way through the router, copy)
 * all of them. The engine's References (configuration with defaults) stay: services read those
 * per call.
 */
const capturedAtBuild = (key: string): boolean =>
  (key.startsWith("@paykit/engine/") && !ENGINE_REFERENCES.has(key)) ||
  key === "@paykit/http/AccessTokens" || key === "@paykit/http/IdempotencyStore" || key === "@paykit/http/RateLimiter" ||
  key === ApiDispatcher.key

const ENGINE_REFERENCES: ReadonlySet<string> = new Set([HostedPagesBaseUrl.key, DashboardBaseUrl.key])

const trimmed = <S>(context: Context.Context<S>): Context.Context<S> =>
  Context.makeUnsafe(new Map([...context.mapUnsafe].filter(([key]) => !capturedAtBuild(key))))

/**
 * What `HttpRouter.serve` gives for an app: the types of routes carry their requirements and
 * errors wrapped in phantom markers (`HttpRouter.Request`) that only its signature unwraps; the
 * serving layer below is built as `HttpRouter.serve` builds it, so it takes that signature.
 */
type ServedApp<A, E, R> = ReturnType<typeof HttpRouter.serve<A, E, R, never>>

export interface ServeOptions {
  readonly port: number
  readonly host?: string
  /**
   * For routes served by Effect's router beside the API. `"trimmed"` (the default): their requests
   * run without the engine's services and this package's ports, so such routes must capture what
   * they use when they are built; one that reads an engine service per request fails. `"full"`:
   * requests carry every service given to the server, at the cost of copying them on each request.
   */
  readonly requestContext?: "trimmed" | "full"
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
 * Serves an app built by `makeHttpApp` on `port` (0 picks a free one; read it from `HttpServer`).
 * The API's dispatcher, when the app has one, takes each request first; Effect's router serves the
 * rest (and answers unknown paths with the spec's 404). Closing the layer's scope stops accepting
 * connections and waits for the requests in flight, up to `gracefulShutdownTimeout`.
 */
export const serveHttpApp = <A, E, R>(app: Layer.Layer<A, E, R>, options: ServeOptions) => {
  const listen = { port: options.port, ...(options.host === undefined ? {} : { host: options.host }), disablePreemptiveShutdown: true }
  // The Node server is created here, not by NodeHttpServer, so the dispatcher can take its requests first.
  return Layer.unwrap(Effect.sync(() => {
    const server = createBoundedServer(timeoutsOf(options))
    return servingOn(server, app, options).pipe(Layer.provideMerge(NodeHttpServer.layer(() => server, listen)))
  }))
}

const servingOn = <A, E, R>(server: Server, app: Layer.Layer<A, E, R>, options: ServeOptions) => {
  const trim = options.requestContext !== "full"
  const { bodyMs } = timeoutsOf(options)
  const serving = Layer.unwrap(
    Effect.contextWith((context: Context.Context<Exclude<R, HttpRouter.HttpRouter> | Scope.Scope>) =>
      Layer.buildWithMemoMap(Layer.provideMerge(app, HttpRouter.layer), Layer.CurrentMemoMap.forkOrCreate(context), Context.get(context, Scope.Scope))
    ).pipe(Effect.map((built) => {
      // Routes that read a body through Effect (the server's `/sandbox/` ones) read at most the limit.
      const routed = Effect.provideService(Context.get(built, HttpRouter.HttpRouter).asHttpEffect(), HttpIncomingMessage.MaxBodySize, ByteSize.bytes(REQUEST_BODY_MAX_BYTES))
      const dispatcher = Context.getOption(built, ApiDispatcher)
      const listening = Effect.gen(function*() {
        const scope = yield* Scope.Scope
        const routerScope = yield* Scope.fork(scope, "parallel")
        const routerHandler = yield* NodeHttpServer.makeHandler(routed, { scope: routerScope })
        const log = yield* RequestLog
        refuseClientErrors(server, log)
        const handler = (req: IncomingMessage, res: ServerResponse) => {
          if (declaresTooLarge(req.headers)) writeRefusal(req, res, bodyTooLarge(), log)
          else routerHandler(req, res)
        }
        const listener = (req: IncomingMessage, res: ServerResponse) => {
          boundBody(req, res, bodyMs, log)
          if (Option.isNone(dispatcher) || !dispatcher.value.handle(req, res)) handler(req, res)
        }
        server.on("request", listener)
        yield* Scope.addFinalizer(scope, shutdown(server, Option.getOrUndefined(dispatcher), options).pipe(
          Effect.ensuring(Effect.sync(() => server.off("request", listener)))
        ))
      })
      const running = trim ? Effect.updateContext(listening, (context: Context.Context<Scope.Scope>) => trimmed(context)) : listening
      return Layer.merge(Layer.effectDiscard(running), Layer.succeedContext(built))
    }))
  ) as Layer.Layer<unknown, unknown, unknown> as ServedApp<A, E, R>
  return serving
}

/** Stops accepting connections, then waits for every request in flight (the dispatcher's and the router's). */
const shutdown = (server: Server, dispatcher: ApiDispatcher["Service"] | undefined, options: ServeOptions): Effect.Effect<void> =>
  Effect.timeoutOrElse(
    Effect.all([
      Effect.callback<void>((resume) => {
        if (!server.listening) return resume(Effect.void)
        server.close(() => resume(Effect.void))
        server.closeIdleConnections()
      }),
      dispatcher === undefined ? Effect.void : Effect.promise(() => dispatcher.drain())
    ], { concurrency: 2, discard: true }),
    { duration: options.gracefulShutdownTimeout ?? Duration.seconds(20), orElse: () => Effect.void }
  )

/** The base URL of a served app, on the loopback interface. */
export const serverUrl: Effect.Effect<string, never, HttpServer.HttpServer> = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? `http://unix:${server.address.path}` : `http://127.0.0.1:${server.address.port}`
)
