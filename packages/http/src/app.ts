import { Cause, Clock, Context, Effect, Layer, Scope, type Types } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { NodeHttpServer } from "@effect/platform-node"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { DashboardBaseUrl, HostedPagesBaseUrl } from "@paykit/engine"
import { PaykitApi } from "./api.ts"
import { renderDocsPage } from "./docs-page.ts"
import { errorResponse, internalErrorResponse, PROTOCOL_REASONS, usage } from "./error-response.ts"
import { GatewayLive, pathnameOf } from "./gateway.ts"
import { AllHandlers } from "./handlers.ts"
import { RequestLog, silentRequestLog } from "./request-log.ts"
import { CurrentRequestId, REQUEST_ID_HEADER } from "./request-context.ts"

/**
 * The HTTP application: every route of the API, `/openapi.json` and the `/docs` page, as a Layer
 * that needs the engine's repositories and services plus the three ports of this package
 * (`AccessTokens`, `IdempotencyStore`, `RateLimiter`). `@paykit/server` provides those from its
 * storage adapter; tests provide the in-memory ones.
 */
export const makeHttpApp = () => {
  const docs = HttpRouter.add("GET", "/docs", Effect.sync(() => HttpServerResponse.html(renderDocsPage())))
  const api = HttpApiBuilder.layer(PaykitApi, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide(AllHandlers),
    Layer.provide(GatewayLive)
  )
  return Layer.mergeAll(api, docs, HttpRouter.middleware(
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
    const requestId = randomUUID()
    const started = performance.now()
    return app.pipe(
      Effect.provideService(CurrentRequestId, requestId),
      Effect.catchCause((cause) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          isRouteNotFound(cause)
            ? errorResponse(usage(404, PROTOCOL_REASONS.pathNotFound, `No route for ${request.method} ${pathnameOf(request.url)}`), requestId, now)
            : internalErrorResponse(requestId)
        )
      ),
      Effect.flatMap((response) =>
        Effect.map(RequestLog, (log) => {
          // The entry is built only for a log that writes it (the silent one, in tests and benchmarks, does not).
          if (log !== silentRequestLog) {
            log({
              time: new Date().toISOString(),
              request_id: requestId,
              method: request.method,
              path: pathnameOf(request.url),
              status: response.status,
              duration_ms: Math.round((performance.now() - started) * 1000) / 1000
            })
          }
          return HttpServerResponse.setHeader(response, REQUEST_ID_HEADER, requestId)
        })
      )
    )
  })

/**
 * The services a request never reads from the server's context: the engine's repositories and
 * services and this package's ports are captured by the gateway and the handlers when they are
 * built. Left in, every request's context would carry (and, on the way through HttpApi, copy)
 * all of them. The engine's References (configuration with defaults) stay: services read those
 * per call.
 */
const capturedAtBuild = (key: string): boolean =>
  (key.startsWith("@paykit/engine/") && !ENGINE_REFERENCES.has(key)) ||
  key === "@paykit/http/AccessTokens" || key === "@paykit/http/IdempotencyStore" || key === "@paykit/http/RateLimiter" ||
  key.startsWith("effect/http-api/HttpApiGroup/")

const ENGINE_REFERENCES: ReadonlySet<string> = new Set([HostedPagesBaseUrl.key, DashboardBaseUrl.key])

const trimmed = <S>(context: Context.Context<S>): Context.Context<S> =>
  Context.makeUnsafe(new Map([...context.mapUnsafe].filter(([key]) => !capturedAtBuild(key))))

/**
 * What `HttpRouter.serve` gives for an app: the types of routes carry their requirements and
 * errors wrapped in phantom markers (`HttpRouter.Request`) that only its signature unwraps; the
 * serving layer below is built exactly as `HttpRouter.serve` builds it, so it takes that signature.
 */
type ServedApp<A, E, R> = ReturnType<typeof HttpRouter.serve<A, E, R, never>>

export interface ServeOptions {
  readonly port: number
  readonly host?: string
  /**
   * `"trimmed"` (the default): requests run without the engine's services and this package's
   * ports, so routes mounted beside the API must capture what they use when they are built, as
   * HttpApi handlers do; one that reads an engine service per request fails. `"full"`: requests
   * carry every service given to the server, at the cost of copying them on each request.
   */
  readonly requestContext?: "trimmed" | "full"
}

/**
 * Serves an app built by `makeHttpApp` on `port` (0 picks a free one; read it from `HttpServer`):
 * `HttpRouter.serve`, except that requests run in the trimmed context unless asked otherwise.
 */
export const serveHttpApp = <A, E, R>(app: Layer.Layer<A, E, R>, options: ServeOptions) => {
  const trim = options.requestContext !== "full"
  const serving = Layer.unwrap(
    Effect.contextWith((context: Context.Context<Exclude<R, HttpRouter.HttpRouter> | Scope.Scope>) =>
      Layer.buildWithMemoMap(Layer.provideMerge(app, HttpRouter.layer), Layer.CurrentMemoMap.forkOrCreate(context), Context.get(context, Scope.Scope))
    ).pipe(Effect.map((built) => {
      const handler = Context.get(built, HttpRouter.HttpRouter).asHttpEffect()
      const serve: Effect.Effect<void, never, HttpServer.HttpServer | Scope.Scope> = HttpServer.serveEffect(handler)
      const running = trim ? Effect.updateContext(serve, (context: Context.Context<HttpServer.HttpServer | Scope.Scope>) => trimmed(context)) : serve
      return Layer.merge(Layer.effectDiscard(running), Layer.succeedContext(built))
    }))
  ) as Layer.Layer<unknown, unknown, unknown> as ServedApp<A, E, R>
  return serving.pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, ...(options.host === undefined ? {} : { host: options.host }) }))
  )
}

/** The base URL of a served app, on the loopback interface. */
export const serverUrl: Effect.Effect<string, never, HttpServer.HttpServer> = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? `http://unix:${server.address.path}` : `http://127.0.0.1:${server.address.port}`
)
