import { Cause, Clock, Context, Effect, Exit } from "effect"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http"
import type { ApiRequest } from "./api-request.ts"
import { type ApiResponse, JSON_CONTENT_TYPE } from "./api-response.ts"
import { errorResponse, internalErrorResponse, PROTOCOL_REASONS, usage } from "./error-response.ts"
import type { GatewayRun } from "./gateway.ts"
import type { QueryValues } from "./query-params.ts"
import { REQUEST_ID_HEADER } from "./request-context.ts"
import { type RequestLogEntry, silentRequestLog } from "./request-log.ts"
import type { Router } from "./routes.ts"

/**
 * Serves the API's routes straight from Node's `request` event: route, read the body, run the
 * gateway and the handler as one Effect in the context captured when the server was built, write
 * the answer. Effect's HTTP router still serves everything else (the OpenAPI document, the docs
 * page, the server's own routes) behind it; docs/architecture.md says why the API's routes skip it.
 *
 * A request runs to its end even when its client goes away: a creation is never left half done,
 * and the client's retry with the same `Idempotency-Key` is answered from what it made.
 */

/** The largest request body read; a larger one is refused with 413 before it is read. */
export const REQUEST_BODY_MAX_BYTES = 5 * 1024 * 1024

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

type BodyOutcome = { readonly _tag: "Read"; readonly text: string } | { readonly _tag: "TooLarge" }

const readBody = (req: IncomingMessage, done: (outcome: BodyOutcome) => void): void => {
  const declared = Number(req.headers["content-length"] ?? 0)
  if (declared > REQUEST_BODY_MAX_BYTES) return done({ _tag: "TooLarge" })
  const chunks: Array<Buffer> = []
  let size = 0
  let over = false
  req.on("data", (chunk: Buffer) => {
    if (over) return
    size += chunk.length
    if (size > REQUEST_BODY_MAX_BYTES) {
      over = true
      chunks.length = 0
      done({ _tag: "TooLarge" })
    } else chunks.push(chunk)
  })
  req.on("end", () => {
    if (!over) done({ _tag: "Read", text: chunks.length === 1 ? String(chunks[0]) : Buffer.concat(chunks).toString("utf8") })
  })
  // A client that goes away mid-body gets no answer; the request never ran.
  req.on("error", () => {})
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

  const write = (req: IncomingMessage, res: ServerResponse, response: ApiResponse, requestId: string, started: number, path: string) => {
    const headers: OutgoingHttpHeaders = {
      "content-type": JSON_CONTENT_TYPE,
      "content-length": Buffer.byteLength(response.body),
      [REQUEST_ID_HEADER]: requestId
    }
    for (const name in response.headers) headers[name] = response.headers[name]
    if (closing) headers["connection"] = "close"
    res.writeHead(response.status, headers)
    res.end(response.body)
    // The entry is built only for a log that writes it (the silent one, in tests and benchmarks, does not).
    if (log !== silentRequestLog) {
      log({
        time: new Date().toISOString(),
        request_id: requestId,
        method: req.method ?? "",
        path,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000
      })
    }
  }

  const settle = () => {
    inFlight--
    if (inFlight === 0 && drained !== undefined) drained()
  }

  return {
    handle: (req, res) => {
      const url = req.url ?? "/"
      const q = url.indexOf("?")
      const path = q === -1 ? url : url.slice(0, q)
      const method = req.method ?? "GET"
      const match = router.find(method, path)
      if (match === undefined) return false
      const requestId = randomUUID()
      const started = performance.now()
      inFlight++
      const failed = (cause: Cause.Cause<unknown>) => {
        reportDefect(requestId, cause)
        write(req, res, internalErrorResponse(requestId), requestId, started, path)
        settle()
      }
      const answer = (body: string) => {
        try {
          start(body)
        } catch (defect) {
          // A bug before the Effect runs (it never throws for bad input) must not take the process down.
          failed(Cause.die(defect))
        }
      }
      const start = (body: string) => {
        const request: ApiRequest = {
          method,
          path,
          headers: req.headers,
          params: match.params,
          query: q === -1 ? EMPTY_QUERY : parseQuery(url.slice(q + 1)),
          body
        }
        const program = Effect.catch(gateway(match.route, request), (error) =>
          Effect.map(Clock.currentTimeMillis, (now) => errorResponse(error, requestId, now)))
        run(program, {
          onExit: (exit) => {
            if (Exit.isFailure(exit)) return failed(exit.cause)
            write(req, res, exit.value, requestId, started, path)
            settle()
          }
        })
      }
      if (!hasBody(method)) answer("")
      else {
        readBody(req, (outcome) => {
          if (outcome._tag === "Read") return answer(outcome.text)
          const error = usage(413, PROTOCOL_REASONS.bodyTooLarge, `The request body is larger than ${REQUEST_BODY_MAX_BYTES} bytes`)
          // The rest of the body is not read: the connection closes after the answer.
          res.shouldKeepAlive = false
          write(req, res, errorResponse(error, requestId, Date.now()), requestId, started, path)
          settle()
        })
      }
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
