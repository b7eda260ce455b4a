import type { Context } from "effect"
import { labelled, PaykitMetrics } from "@paykit/engine"

/**
 * Each answer counted and timed (`paykit_http_requests_total`, `paykit_http_request_duration_seconds`)
 * by its route's template (`/payments/:id`), never the path it was asked with: a path holds
 * ids, and a series per id would grow without end. A request no route matched is `unmatched`.
 * Recorded synchronously into the registry of the dispatcher's context, beside the log line.
 */

const requestsOf = labelled(PaykitMetrics.httpRequests)
const durationOf = labelled(PaykitMetrics.httpRequestDuration)

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

export const UNMATCHED_ROUTE = "unmatched"

export const measureAnswer = (
  context: Context.Context<never>,
  route: string | undefined,
  method: string,
  status: number,
  started: number
): void => {
  const labels = { route: route ?? UNMATCHED_ROUTE, method: METHODS.has(method) ? method : "other" }
  requestsOf({ ...labels, status: String(status) }).updateUnsafe(1, context)
  durationOf(labels).updateUnsafe((performance.now() - started) / 1000, context)
}
