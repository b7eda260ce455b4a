import { Effect } from "effect"
import type { IncomingHttpHeaders } from "node:http"
import { spanOfTraceparent } from "@paykit/engine"
import type { ApiResponse } from "./api-response.ts"

/** What a request's span says of it. */
export interface SpannedRequest {
  readonly requestId: string
  readonly method: string
  /** The route's template (`/payments/:identity`), never the path with its ids. */
  readonly route: string
  readonly headers: IncomingHttpHeaders
}

/**
 * A routed request as a server span (`GET /payments/:identity`), with the OpenTelemetry HTTP
 * attributes and the request id (not the path: a page's path may carry a signed token); a child of the caller's span when the request carries a W3C
 * `traceparent`. Its statements, engine operations and the due work it schedules are its
 * children (docs/operations.md, "Traces").
 */
export const requestSpan = (answered: Effect.Effect<ApiResponse>, request: SpannedRequest): Effect.Effect<ApiResponse> => {
  const header = request.headers["traceparent"]
  const parent = spanOfTraceparent(typeof header === "string" ? header : undefined)
  return answered.pipe(
    Effect.tap((response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
    Effect.withSpan(`${request.method} ${request.route}`, {
      kind: "server",
      attributes: {
        "http.request.method": request.method,
        "http.route": request.route,
        "paykit.request_id": request.requestId
      },
      ...(parent === undefined ? {} : { parent })
    })
  )
}
