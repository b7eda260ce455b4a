import { Cause, Clock, Context, Effect, Exit } from "effect"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http"
import { type ApiRequest, parseJsonBody } from "./api-request.ts"
import { type ApiResponse, JSON_CONTENT_TYPE } from "./api-response.ts"
import { errorResponse } from "./error-response.ts"
import type { GatewayRun } from "./gateway.ts"
import type { QueryValues } from "./query-params.ts"
import { bodyTooLarge, declaresTooLarge, REQUEST_BODY_MAX_BYTES } from "./request-bounds.ts"
import { REQUEST_ID_HEADER } from "./request-context.ts"
import { defectAnswer, logAnswer, type RequestLogEntry } from "./request-log.ts"
import type { RouteMatch, Router } from "./routes.ts"

/**
 * Serves the API's routes straight from Node's `request` event: route, read the body, run the
 * gateway and the handler as one Effect in the context captured when the server was built, write
 * the answer. Effect's HTTP router still serves everything else (the OpenAPI document, the docs
 * page, the server's own routes) behind it; docs/architecture.md says why the API's routes skip it.
 *
 * A request runs to its end even when its client goes away: a creation is never left half done,
 * and the client's retry with the same `Idempotency-Key` is answered from what it made.
 */

export interface Dispatcher {
  /** Serves the request when its method and path are an API route; `false` leaves it to the next handler. */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => boolean
  /** Answers from now on with `Connection: close`, and resolves once no request is in flight. */
  readonly drain: () => Promise<void>
}

export class ApiDispatcher extends Context.Service<ApiDispatcher, Dispatcher>()("@paykit/http/ApiDispatcher") {}

const EMPTY_QUERY: QueryValues = {}

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
  answer(body: string): void
  tooLarge(): void
  abandoned(): void
}

const readBody = (req: IncomingMessage, res: ServerResponse, reader: BodyReader): void => {
  if (declaresTooLarge(req.headers)) return reader.tooLarge()
  const chunks: Array<Buffer> = []
  let size = 0
  // Refused as too large, or given up: what else arrives is not kept and not answered.
  let done = false
  req.on("data", (chunk: Buffer) => {
    if (done) return
    size += chunk.length
    if (size > REQUEST_BODY_MAX_BYTES) {
      done = true
      chunks.length = 0
      reader.tooLarge()
    } else chunks.push(chunk)
  })
  req.on("end", () => {
    if (!done) reader.answer(chunks.length === 1 ? String(chunks[0]) : Buffer.concat(chunks).toString("utf8"))
  })
  req.on("error", () => {})
  // The answer closed before the body came: its client went away mid-body, or the body timeout
  // answered 408 (`boundBody`). The request never ran, and a shutdown does not wait for it.
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
  /** Where defects (bugs, never bad input) are reported; the client sees only the 500 body. */
  readonly reportDefect: (requestId: string, cause: Cause.Cause<unknown>) => void
}

export const makeDispatcher = ({ router, gateway, context, log, reportDefect }: DispatcherOptions): Dispatcher => {
  const run = Effect.runCallbackWith(context)
  let inFlight = 0
  let closing = false
  let drained: (() => void) | undefined

  /**
   * One request and its answer. A class rather than closures: the request's steps are methods
   * shared by every request, so serving one allocates this object and little else.
   */
  class Exchange {
    readonly requestId = randomUUID()
    readonly started = performance.now()
    constructor(
      readonly req: IncomingMessage,
      readonly res: ServerResponse,
      readonly match: RouteMatch,
      readonly method: string,
      readonly url: string,
      readonly q: number,
      readonly path: string
    ) {}

    answer(body: string): void {
      try {
        this.start(body)
      } catch (defect) {
        // A bug before the Effect runs (it never throws for bad input) must not take the process down.
        this.failed(Cause.die(defect))
      }
    }

    start(body: string): void {
      const request: ApiRequest = {
        method: this.method,
        path: this.path,
        headers: this.req.headers,
        params: this.match.params,
        query: this.q === -1 ? EMPTY_QUERY : parseQuery(this.url.slice(this.q + 1)),
        body,
        json: parseJsonBody(body)
      }
      const requestId = this.requestId
      const program = Effect.catch(gateway(this.match.route, request), (error) =>
        Effect.map(Clock.currentTimeMillis, (now) => errorResponse(error, requestId, now)))
      run(program, {
        onExit: (exit) => {
          if (Exit.isFailure(exit)) return this.failed(exit.cause)
          this.write(exit.value)
          this.settle()
        }
      })
    }

    tooLarge(): void {
      // The rest of the body is read and dropped, up to the body timeout: closing the connection
      // on a client still sending would reset it before it reads this answer.
      this.write(errorResponse(bodyTooLarge(), this.requestId, Date.now()))
      this.settle()
    }

    abandoned(): void {
      this.settle()
    }

    failed(cause: Cause.Cause<unknown>): void {
      this.write(defectAnswer(reportDefect, this.requestId, cause))
      this.settle()
    }

    write(response: ApiResponse): void {
      const headers: OutgoingHttpHeaders = {
        "content-type": JSON_CONTENT_TYPE,
        "content-length": Buffer.byteLength(response.body),
        [REQUEST_ID_HEADER]: this.requestId
      }
      for (const name in response.headers) headers[name] = response.headers[name]
      if (closing) headers["connection"] = "close"
      this.res.writeHead(response.status, headers)
      this.res.end(response.body)
      logAnswer(log, this, response.status)
    }

    settle(): void {
      inFlight--
      if (inFlight === 0 && drained !== undefined) drained()
    }
  }

  return {
    handle: (req, res) => {
      const url = req.url ?? "/"
      const q = url.indexOf("?")
      const path = q === -1 ? url : url.slice(0, q)
      const method = req.method ?? "GET"
      const match = router.find(method, path)
      if (match === undefined) return false
      inFlight++
      const exchange = new Exchange(req, res, match, method, url, q, path)
      if (!hasBody(method)) exchange.answer("")
      else readBody(req, res, exchange)
      return true
    },
    drain: () => {
      closing = true
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => {
        drained = resolve
      })
    }
  }
}
