import { DOCUMENTATION_PATH, type PaykitError, type RateLimited, httpStatusOf, InvalidApiUsage, renderError } from "@paykit/core"
import { type ApiResponse, jsonResponse } from "./api-response.ts"

/**
 * Every error the API answers with, rendered once through core's `renderError`, so the body is the
 * specification's error body (with the request id) for engine errors and protocol errors alike.
 */

/**
 * Where `documentation_url` points: the human docs page served by this API, whose anchors are the
 * reasons. A server that knows where people reach it (`PublicUrl`) makes it absolute, so a URL read
 * in a log opens; without one it is the path.
 */
export const DOCUMENTATION_BASE = DOCUMENTATION_PATH

/** The docs page at the public URL `publicUrl` (no trailing slash; empty: the path alone). */
export const documentationBaseOf = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, "")}${DOCUMENTATION_PATH}`

export const rateLimitHeaders = (limit: number, remaining: number, resetAtMillis: number, nowMillis: number) => ({
  "ratelimit-limit": String(limit),
  "ratelimit-remaining": String(Math.max(0, remaining)),
  // Seconds until the window resets (IETF RateLimit header fields draft).
  "ratelimit-reset": String(Math.max(0, Math.ceil((resetAtMillis - nowMillis) / 1000)))
})

export const errorResponse = (
  error: PaykitError,
  requestId: string,
  nowMillis: number,
  documentationBase: string = DOCUMENTATION_BASE
): ApiResponse => {
  const body = renderError(error, { requestId, documentationBase })
  return error._tag === "RateLimited"
    ? jsonResponse(httpStatusOf(error), body, rateLimitedHeaders(error, nowMillis))
    : jsonResponse(httpStatusOf(error), body)
}

const rateLimitedHeaders = (error: RateLimited, nowMillis: number) => ({
  ...rateLimitHeaders(error.limit, 0, error.resetAtMillis, nowMillis),
  "retry-after": String(Math.max(0, Math.ceil((error.resetAtMillis - nowMillis) / 1000)))
})

/** Protocol errors: the reasons this adapter (not the engine) answers with. */
export const usage = (status: InvalidApiUsage["status"], reason: string, message: string): InvalidApiUsage =>
  new InvalidApiUsage({ status, reason, message })

export const PROTOCOL_REASONS = {
  missingVersion: "missing_version_header",
  unknownVersion: "version_not_found",
  invalidJson: "invalid_document_structure",
  invalidContentType: "invalid_content_type",
  pathNotFound: "path_not_found",
  methodNotAllowed: "method_not_allowed",
  missingIdempotencyKey: "idempotency_key_missing",
  idempotencyKeyTooLong: "idempotency_key_too_long",
  invalidFilters: "invalid_filters",
  idempotentCreationConflict: "idempotent_creation_conflict",
  idempotentRequestInProgress: "idempotent_request_in_progress",
  readOnlyToken: "insufficient_permissions",
  missingToken: "access_token_not_found",
  bodyTooLarge: "request_entity_too_large",
  requestTimeout: "request_timeout",
  headersTooLarge: "request_headers_too_large",
  malformedRequest: "malformed_request",
  ambiguousAuthorization: "ambiguous_authorization"
} as const

/**
 * How long a client is asked to wait before sending a 503'd request again (`Retry-After`): a lost
 * connection is made again by the pool at once, and a Citus worker's restart or a shard's move takes
 * seconds, so a second's wait is enough to find it back without hammering it.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1

/**
 * The storage could not be reached (its connection lost; on Citus, the worker that holds the
 * organisation's rows down): 503, the spec's error body with type `gocardless`, and `Retry-After`.
 * Nothing the request wrote was kept (its writes are one transaction, which did not commit), so it
 * can be sent again.
 */
export const unavailableResponse = (requestId: string, documentationBase: string = DOCUMENTATION_BASE): ApiResponse => {
  const answer = serverErrorResponse(503, "service_unavailable", "The service is unavailable: retry later", requestId, documentationBase)
  return { ...answer, headers: { ...answer.headers, "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } }
}

/** The spec's error body of type `gocardless`, with one error naming `reason`. */
const serverErrorResponse = (code: 500 | 503, reason: string, message: string, requestId: string, documentationBase: string): ApiResponse =>
  jsonResponse(code, {
    error: {
      code,
      type: "gocardless",
      message,
      errors: [{ reason, message }],
      documentation_url: `${documentationBase}#${reason}`,
      request_id: requestId
    }
  })

/**
 * A defect (a bug, never bad input): the spec's error body with type `gocardless`, the request
 * id to quote, and nothing of the cause (no message, no stack) leaks to the caller.
 */
export const internalErrorResponse = (requestId: string, documentationBase: string = DOCUMENTATION_BASE): ApiResponse =>
  serverErrorResponse(500, "internal_server_error", "Internal server error", requestId, documentationBase)
