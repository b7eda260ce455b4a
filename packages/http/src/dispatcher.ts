import { Cause, Clock, Context, Effect, Exit, References } from "effect"
import { randomUUID } from "node:crypto"
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from "node:http"
import { type InvalidApiUsage, isStorageFailure } from "@paykit/core"
import { type ApiRequest, type JsonBody, parseJsonBody } from "./api-request.ts"
import { type ApiResponse, JSON_CONTENT_TYPE } from "./api-response.ts"
import { DOCUMENTATION_BASE, errorResponse, PROTOCOL_REASONS, usage } from "./error-response.ts"
import type { CallerSeen, GatewayRun } from "./gateway.ts"
import { nodeHeadersOf, parsedBodyOf, readWebBody } from "./host-request.ts"
import type { QueryValues } from "./query-params.ts"
import {
  bodyTooLarge,
  boundBody,
  declaresTooLarge,
  holdsTooManyFields,
  REQUEST_BODY_MAX_BYTES,
  refuseClientErrors,
  type Refusal,
  requestTimeout,
  tooManyFields,
  type UnreadRequest
} from "./request-bounds.ts"
import { REQUEST_ID_HEADER } from "./request-context.ts"
import { measureAnswer } from "./request-metrics.ts"
import { defectAnswer, logAnswer, type RequestLogEntry } from "./request-log.ts"
import { type AnyRoute, isPage, makeRouter, type RouteMatch, type Router } from "./routes.ts"
import { requestSpan } from "./request-span.ts"
import type { CallerShape } from "./request-context.ts"
import type { RequestRecorder } from "./stored-log/writer.ts"

/**
 * The server's one request stack, straight from Node's `request` event: every request (the API's
 * routes, the sandbox's, the pages, an unknown path, a body too large or too slow) gets its
 * request id, its answer and its one log line (`logAnswer`) here, and a defect anywhere its 500
 * here. Per request: route, read the body, run the gateway and the handler (a page: the handler
 * alone) as one Effect in the context captured when the server was built, write the answer.
 * docs/architecture.md says why this is not Effect's HTTP router.
 *
 * A request runs to its end even when its client goes away: a creation is never left half done,
 * and the client's retry with the same `Idempotency-Key` is answered from what it made.
 */

export interface Dispatcher {
  /** Serves every request of `server`, bodies bounded by `bodyMs`; the returned function stops it. */
  readonly attach: (server: Server, bodyMs: number) => () => void
  /**
   * Serves one request a host's Node server took, as if its target were `target` (the path below
   * the mount). A body the host's parser already read is taken from the request (`parsedBodyOf`).
   */
  readonly serveNode: (req: IncomingMessage, res: ServerResponse, target: string, bodyMs: number) => void
  /** Serves one web `Request` as if its target were `target`, its body bounded by `bodyMs`. */
  readonly serveFetch: (request: Request, target: string, bodyMs: number) => Promise<Response>
  /** Answers from now on with `Connection: close`, and resolves once no request is in flight. */
  readonly drain: () => Promise<void>
  /** A dispatcher over these routes as well, with the same gateway, context and logs (how `makeHttpAppWith` adds the pages). */
  readonly withRoutes: (routes: ReadonlyArray<AnyRoute>) => Dispatcher
  /** The same dispatcher for a host that mounts it under `basePath` (normalised): the links it answers with carry the prefix. */
  readonly mountedAt: (basePath: string) => Dispatcher
  /** Every route it serves (what the OpenAPI document and the docs page describe). */
  readonly routes: ReadonlyArray<AnyRoute>
}

export class ApiDispatcher extends Context.Service<ApiDispatcher, Dispatcher>()("@paykit/http/ApiDispatcher") {}

const EMPTY_QUERY: QueryValues = {}

const EMPTY_JSON: JsonBody = { _tag: "Empty" }

/** `a=1&b=2&b=3` as `{a: "1", b: ["2", "3"]}`: repeats become arrays, as the list parameters read them. */
export const parseQuery = (search: string): QueryValues => {
  if (search === "") return EMPTY_QUERY
  // No prototype: a parameter named `__proto__` or `constructor` is a parameter like any other.
  const values: Record<string, string | Array<string>> = Object.create(null) as Record<string, string | Array<string>>
  for (const [key, value] of new URLSearchParams(search)) {
    const previous = values[key]
    if (previous === undefined) values[key] = value
    else if (typeof previous === "string") values[key] = [previous, value]
    else previous.push(value)
  }
  return values
}

const hasBody = (method: string): boolean => method === "POST" || method === "PUT" || method === "PATCH"

/** Where a read body goes: the exchange answers it, refuses it as too large, or forgets it. */
interface BodyReader {
  answer(body: Uint8Array): void
  tooLarge(): void
  abandoned(): void
  /** The most bytes the body may hold. */
  readonly bodyLimit: number
}

const readBody = (req: IncomingMessage, res: ServerResponse, reader: BodyReader): void => {
  const chunks: Array<Buffer> = []
  let size = 0
  // Refused as too large, or given up: what else arrives is not kept and not answered.
  let done = false
  req.on("data", (chunk: Buffer) => {
    if (done) return
    size += chunk.length
    if (size > reader.bodyLimit) {
      done = true
      chunks.length = 0
      reader.tooLarge()
    } else chunks.push(chunk)
  })
  req.on("end", () => {
    if (!done) reader.answer(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks))
  })
  req.on("error", () => {})
  // The answer closed before the body came: its client went away mid-body, or the body timeout
  // answered 408 (`timedOut`). The request never ran, and a shutdown does not wait for it.
  res.once("close", () => {
    if (done || req.complete) return
    done = true
    reader.abandoned()
  })
}

export interface DispatcherOptions {
  readonly router: Router
  readonly gateway: GatewayRun
  /** The services every request runs with: the clock, the engine's References. */
  readonly context: Context.Context<never>
  readonly log: (entry: RequestLogEntry) => void
  /** Where authenticated requests go once answered, for the stored request log; none: not stored. */
  readonly recorder?: RequestRecorder | undefined
  /** Where defects (bugs, never bad input) are reported; the client sees only the 500 body. */
  readonly reportDefect: (requestId: string, cause: Cause.Cause<unknown>) => void
  /** The prefix a host mounts the routes under (`"/paykit"`), `""` for none: `documentation_url` and `Location` carry it. */
  readonly basePath?: string
  /** What error bodies' `documentation_url` starts with (`documentationBaseOf`); by default the docs page's path under `basePath`. */
  readonly documentationBase?: string
}

/** Where an exchange's answer goes: a Node response, or the web `Response` a fetch handler resolves with. */
interface Sink {
  /** `hangUp`: close the connection once the answer is written (a body that did not arrive in time). */
  send(status: number, headers: OutgoingHttpHeaders, body: string | Uint8Array, hangUp: boolean): void
}

const nodeSink = (req: IncomingMessage, res: ServerResponse): Sink => ({
  send: (status, headers, body, hangUp) => {
    res.writeHead(status, headers)
    res.end(body)
    if (hangUp) res.once("finish", () => req.socket.destroy())
  }
})

/** Node's header values as a web `Headers` (the hop-by-hop `Connection` is the host's to decide). */
const webHeaders = (headers: OutgoingHttpHeaders): Headers => {
  const result = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === "connection") continue
    if (Array.isArray(value)) for (const item of value) result.append(name, item)
    else result.set(name, String(value))
  }
  return result
}

const notFound = (method: string, path: string): InvalidApiUsage =>
  usage(404, PROTOCOL_REASONS.pathNotFound, `No route for ${method} ${path}`)

/**
 * What the exchanges of one dispatcher share: how a request runs and is logged, and the count of
 * requests in flight that a shutdown waits for.
 */
class Shared {
  inFlight = 0
  closing = false
  drained: (() => void) | undefined = undefined
  readonly run: ReturnType<typeof Effect.runCallbackWith<never>>
  readonly basePath: string
  readonly documentationBase: string
  /** Whether requests are spans (`requestSpan`): tracing is on where the server was built. */
  readonly tracing: boolean
  constructor(readonly options: DispatcherOptions) {
    this.run = Effect.runCallbackWith(options.context)
    this.tracing = Context.get(options.context, References.TracerEnabled)
    this.basePath = options.basePath ?? ""
    this.documentationBase = options.documentationBase ?? `${this.basePath}${DOCUMENTATION_BASE}`
  }

  settle(): void {
    this.inFlight--
    if (this.inFlight === 0 && this.drained !== undefined) this.drained()
  }
}

const contentTypeOf = (headers: IncomingHttpHeaders): string | undefined => headers["content-type"]

/** How many Authorization headers a request carries (`rawHeaders`: names and values in turn, as sent). */
const authorizationCount = (raw: ReadonlyArray<string>): number =>
  raw.reduce((count, value, i) => i % 2 === 0 && value.toLowerCase() === "authorization" ? count + 1 : count, 0)

/**
 * The same of a web request, whose repeated headers are joined with ", ": a bearer token has no
 * comma (RFC 6750's token68), so each comma is one more header.
 */
const joinedAuthorizationCount = (headers: Headers): number => {
  const value = headers.get("authorization")
  return value === null ? 0 : value.split(",").length
}

/**
 * One request and its answer. A class rather than closures: the request's steps are methods
 * shared by every request, so serving one allocates this object and little else.
 */
class Exchange implements CallerSeen {
  readonly requestId = randomUUID()
  readonly started = performance.now()
  /** Written once: a late handler after a 408 (or the reverse) writes nothing more. */
  answered = false
  /** Who called, once the gateway has read the token: the request log stores only such requests. */
  caller: CallerShape | undefined = undefined
  request: ApiRequest | undefined = undefined
  constructor(
    readonly shared: Shared,
    readonly headers: IncomingHttpHeaders,
    readonly sink: Sink,
    readonly match: RouteMatch | undefined,
    readonly method: string,
    readonly url: string,
    readonly q: number,
    readonly path: string,
    /** How many Authorization headers were sent: more than one is refused, since a proxy may have read another. */
    readonly authorizations: number
  ) {}

  /** The most bytes its body may hold: its route's raw-body limit, else the API's. */
  get bodyLimit(): number {
    const route = this.match?.route
    return route === undefined || isPage(route) ? REQUEST_BODY_MAX_BYTES : route.rawBody ?? REQUEST_BODY_MAX_BYTES
  }

  /** Whether its route takes the body as raw bytes (`RawBody`). */
  get rawBody(): boolean {
    const route = this.match?.route
    return route !== undefined && !isPage(route) && route.rawBody !== undefined
  }

  answer(body: string | Uint8Array): void {
    try {
      this.start(body)
    } catch (defect) {
      // A bug before the Effect runs (it never throws for bad input) must not take the process down.
      this.failed(Cause.die(defect))
    }
  }

  start(sent: string | Uint8Array): void {
    const match = this.match
    if (match === undefined) return this.refuse(notFound(this.method, this.path))
    // Node keeps the first of repeated Authorization headers; a proxy in front may read another.
    if (!isPage(match.route) && this.authorizations > 1) {
      return this.refuse(usage(400, PROTOCOL_REASONS.ambiguousAuthorization, "Send one Authorization header"))
    }
    const raw = this.rawBody
    const body = raw ? "" : typeof sent === "string" ? sent : Buffer.from(sent.buffer, sent.byteOffset, sent.byteLength).toString("utf8")
    // Counted before anything parses it: a body of many fields is refused in one pass over its text.
    if (body !== "" && holdsTooManyFields(body, contentTypeOf(this.headers))) return this.refuse(tooManyFields())
    const request: ApiRequest = {
      method: this.method,
      path: this.path,
      basePath: this.shared.basePath,
      headers: this.headers,
      params: match.params,
      query: this.q === -1 ? EMPTY_QUERY : parseQuery(this.url.slice(this.q + 1)),
      body,
      ...(raw ? { bytes: typeof sent === "string" ? Buffer.from(sent, "utf8") : sent } : {}),
      json: raw ? EMPTY_JSON : parseJsonBody(body)
    }
    const requestId = this.requestId
    const route = match.route
    this.request = request
    const handled = isPage(route) ? route.page(request) : this.shared.options.gateway(route, request, this)
    const answered = Effect.catch(handled, (error) =>
      // A storage failure is the server's, not the request's: answered and reported as a defect is (`defectAnswer`).
      isStorageFailure(error)
        ? Effect.die(error)
        : Effect.map(Clock.currentTimeMillis, (now) => errorResponse(error, requestId, now, this.shared.documentationBase)))
    const program = this.shared.tracing ? requestSpan(answered, { requestId, method: this.method, route: route.path, headers: this.headers }) : answered
    this.shared.run(program, {
      onExit: (exit) => {
        if (Exit.isFailure(exit)) return this.failed(exit.cause)
        this.write(exit.value)
        this.shared.settle()
      }
    })
  }

  /** A protocol refusal before any handler (404, 413): answered at once. */
  refuse(error: InvalidApiUsage): void {
    this.write(errorResponse(error, this.requestId, Date.now(), this.shared.documentationBase))
    this.shared.settle()
  }

  tooLarge(): void {
    // The rest of the body is read and dropped, up to the body timeout: closing the connection
    // on a client still sending would reset it before it reads this answer.
    this.refuse(bodyTooLarge(this.bodyLimit))
  }

  /** The body did not arrive in time: 408, then the connection is closed. The request settles when its reading gives up. */
  timedOut(): void {
    this.write(errorResponse(requestTimeout(), this.requestId, Date.now(), this.shared.documentationBase), true)
  }

  abandoned(): void {
    this.shared.settle()
  }

  failed(cause: Cause.Cause<unknown>): void {
    this.write(defectAnswer(this.shared.options.reportDefect, this.requestId, cause, this.shared.documentationBase))
    this.shared.settle()
  }

  write(response: ApiResponse, close = false): void {
    if (this.answered) return
    this.answered = true
    const body = response.bytes ?? response.body
    const headers: OutgoingHttpHeaders = {
      "content-type": JSON_CONTENT_TYPE,
      "content-length": Buffer.byteLength(body),
      [REQUEST_ID_HEADER]: this.requestId
    }
    for (const name in response.headers) headers[name] = response.headers[name]
    const location = response.headers["location"]
    // A path the API names (a creation's `Location`, a page's redirect) is below the mount too.
    if (location?.startsWith("/") === true) headers["location"] = `${this.shared.basePath}${location}`
    if (this.shared.closing || close) headers["connection"] = "close"
    this.sink.send(response.status, headers, body, close)
    logAnswer(this.shared.options.log, this, response.status)
    measureAnswer(this.shared.options.context, this.match?.route.path, this.method, response.status, this.started)
    const recorder = this.shared.options.recorder
    if (recorder !== undefined && this.caller !== undefined && this.request !== undefined) this.recordFor(recorder, this.caller, this.request, response)
  }

  /** Hands the answered request to the stored log's writer, which does the work later. */
  recordFor(recorder: RequestRecorder, caller: CallerShape, request: ApiRequest, response: ApiResponse): void {
    const key = request.headers["idempotency-key"]
    recorder.record({
      caller,
      requestId: this.requestId,
      method: this.method,
      path: this.path,
      query: request.query,
      requestJson: request.json,
      requestBodyLength: request.body.length,
      idempotencyKey: typeof key === "string" && key !== "" ? key : undefined,
      status: response.status,
      responseBody: response.body,
      answeredAtMillis: Date.now(),
      durationMs: Math.round((performance.now() - this.started) * 1000) / 1000
    })
  }
}

export const makeDispatcher = (options: DispatcherOptions): Dispatcher => {
  const shared = new Shared(options)
  const router = options.router

  const exchangeFor = (method: string, url: string, headers: IncomingHttpHeaders, sink: Sink, authorizations: number): Exchange => {
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    shared.inFlight++
    return new Exchange(shared, headers, sink, router.find(method, path), method, url, q, path, authorizations)
  }

  /** True when the exchange is answered without a body: refused as too large, unrouted, or a method without one. */
  const answeredBodiless = (exchange: Exchange): boolean => {
    if (declaresTooLarge(exchange.headers, exchange.bodyLimit)) exchange.tooLarge()
    else if (exchange.match === undefined || !hasBody(exchange.method)) exchange.answer("")
    else return false
    return true
  }

  const handle = (req: IncomingMessage, res: ServerResponse, bodyMs: number, target = req.url ?? "/"): void => {
    const exchange = exchangeFor(req.method ?? "GET", target, req.headers, nodeSink(req, res), authorizationCount(req.rawHeaders))
    boundBody(req, res, bodyMs, exchange)
    if (answeredBodiless(exchange)) return
    const parsed = parsedBodyOf(req)
    if (parsed === undefined) readBody(req, res, exchange)
    else exchange.answer(parsed)
  }

  const serveFetch = (request: Request, target: string, bodyMs: number): Promise<Response> =>
    new Promise((resolve) => {
      const sink: Sink = { send: (status, headers, body) => resolve(new Response(status === 204 || status === 304 ? null : body, { status, headers: webHeaders(headers) })) }
      const exchange = exchangeFor(request.method, target, nodeHeadersOf(request.headers), sink, joinedAuthorizationCount(request.headers))
      if (answeredBodiless(exchange)) return
      readWebBody(request.body, bodyMs, {
        answer: (body) => exchange.answer(body),
        tooLarge: () => exchange.tooLarge(),
        // The body is given up at once: the request settles with its 408.
        timedOut: () => {
          exchange.timedOut()
          exchange.abandoned()
        },
        abandoned: () => exchange.abandoned()
      }, exchange.bodyLimit)
    })

  /** A request Node could not read (no `ServerResponse` exists): its id and its answer, logged as any other. */
  const refuseUnread = (error: InvalidApiUsage, request: UnreadRequest): Refusal => {
    const requestId = randomUUID()
    const response = errorResponse(error, requestId, Date.now(), shared.documentationBase)
    logAnswer(options.log, { requestId, ...request }, response.status)
    return { requestId, response }
  }

  return {
    attach: (server, bodyMs) => {
      const listener = (req: IncomingMessage, res: ServerResponse) => handle(req, res, bodyMs)
      const onClientError = refuseClientErrors(server, refuseUnread)
      server.on("request", listener)
      return () => {
        server.off("request", listener)
        server.off("clientError", onClientError)
      }
    },
    drain: () => {
      shared.closing = true
      return shared.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => {
        shared.drained = resolve
      })
    },
    serveNode: (req, res, target, bodyMs) => handle(req, res, bodyMs, target),
    serveFetch,
    withRoutes: (routes) => makeDispatcher({ ...options, router: makeRouter([...router.routes, ...routes]) }),
    mountedAt: (basePath) => makeDispatcher({ ...options, basePath }),
    routes: router.routes
  }
}
