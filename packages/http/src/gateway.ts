import { Clock, Effect, Layer } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError, HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { API_VERSION, Forbidden, InvalidState, isPaykitError, type PaykitError, RateLimited } from "@paykit/core"
import { CallingApp } from "@paykit/engine"
import { AccessTokens, authenticateWith } from "./access-tokens.ts"
import { errorResponse, PROTOCOL_REASONS, rateLimitHeaders, usage } from "./error-response.ts"
import { IDEMPOTENCY_KEY_MAX_LENGTH, IdempotencyStore, requestFingerprint, type StoredResponse } from "./idempotency.ts"
import { RateLimiter, rateLimitGroupOf } from "./rate-limit.ts"
import { Caller, CurrentRequestId } from "./request-context.ts"
import { fromHttpApiSchemaError } from "./schema-errors.ts"
import { ERROR_RESPONSES } from "./wire.ts"

/**
 * The gateway every API endpoint passes through, in this order: `GoCardless-Version`, the bearer
 * token, the token's scope, the rate limit of the endpoint group, the body's content type and
 * JSON syntax, idempotency of creations; then the handler. Every failure on the way, and every
 * decoding failure of path, query or body, is answered with the spec's error body.
 */
export class Gateway extends HttpApiMiddleware.Service<Gateway, { provides: Caller }>()("@paykit/http/Gateway", {
  security: { bearer: HttpApiSecurity.bearer },
  error: ERROR_RESPONSES
}) {}

/** The endpoint identifier that marks a creating POST (idempotent, answered 201 with `Location`). */
export const CREATE_ENDPOINT = "create"

/** Every creating POST: `create`, and the withdrawal, which creates an outbound payment. */
export const CREATING_ENDPOINTS: ReadonlySet<string> = new Set([CREATE_ENDPOINT, "withdrawal"])

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;.*)?$/i

export const pathnameOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

const checkVersion = (version: string | undefined): Effect.Effect<void, PaykitError> => {
  if (version === undefined || version === "") {
    return Effect.fail(usage(400, PROTOCOL_REASONS.missingVersion, `The GoCardless-Version header is required; this API serves ${API_VERSION}`))
  }
  if (version !== API_VERSION) {
    return Effect.fail(usage(400, PROTOCOL_REASONS.unknownVersion, `GoCardless-Version ${version} is not supported; this API serves ${API_VERSION}`))
  }
  return Effect.void
}

const checkBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<string, PaykitError> =>
  Effect.gen(function*() {
    const contentType = request.headers["content-type"]
    if (contentType !== undefined && !JSON_CONTENT_TYPE.test(contentType)) {
      return yield* usage(400, PROTOCOL_REASONS.invalidContentType, `Content-Type must be application/json, got ${contentType}`)
    }
    const text = yield* Effect.orDie(request.text)
    if (text.trim() !== "") {
      try {
        JSON.parse(text)
      } catch {
        return yield* usage(400, PROTOCOL_REASONS.invalidJson, "The request body is not valid JSON")
      }
    }
    return text
  })

const toStored = (response: HttpServerResponse.HttpServerResponse, resourceKey: string): StoredResponse | undefined => {
  if (response.status < 200 || response.status >= 300 || response.body._tag !== "Uint8Array") return undefined
  const body = new TextDecoder().decode(response.body.body)
  let resourceId: string | null = null
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed === "object" && parsed !== null) {
      const resource: unknown = (parsed as Record<string, unknown>)[resourceKey]
      if (typeof resource === "object" && resource !== null) {
        const id: unknown = (resource as Record<string, unknown>)["id"]
        if (typeof id === "string") resourceId = id
      }
    }
  } catch {
    return undefined
  }
  return { status: response.status, body, location: response.headers["location"] ?? null, resourceId }
}

const replay = (stored: StoredResponse): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(stored.body, {
    status: stored.status,
    contentType: "application/json",
    headers: stored.location === null ? {} : { location: stored.location }
  })

/** Any failure of the gateway or the endpoint, as the response the client gets. */
export const failureResponse = (error: unknown, requestId: string, now: number): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (HttpApiError.HttpApiSchemaError.is(error)) return Effect.succeed(errorResponse(fromHttpApiSchemaError(error), requestId, now))
  if (isPaykitError(error)) return Effect.succeed(errorResponse(error, requestId, now))
  return Effect.die(error)
}

export const GatewayLive: Layer.Layer<Gateway, never, AccessTokens | IdempotencyStore | RateLimiter> = Layer.effect(
  Gateway,
  Effect.gen(function*() {
    const tokens = yield* AccessTokens
    const idempotency = yield* IdempotencyStore
    const limiter = yield* RateLimiter
    return Gateway.of({
      bearer: (httpEffect, { endpoint, group }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const method = request.method
          const path = pathnameOf(request.url)
          const guarded = Effect.gen(function*() {
            yield* checkVersion(request.headers["gocardless-version"])
            const caller = yield* authenticateWith(tokens, request.headers["authorization"])
            if (caller.scope === "read_only" && method !== "GET") {
              return yield* new Forbidden({ reason: PROTOCOL_REASONS.readOnlyToken, message: "This access token is read-only" })
            }
            let limitHeaders: Record<string, string> | undefined
            const limitGroup = rateLimitGroupOf(method, path)
            if (limitGroup !== undefined) {
              const now = yield* Clock.currentTimeMillis
              const decision = yield* limiter.hit(caller.organisation, limitGroup, now)
              if (!decision.allowed) return yield* new RateLimited({ limit: decision.limit, resetAtMillis: decision.resetAtMillis })
              limitHeaders = rateLimitHeaders(decision.limit, decision.remaining, decision.resetAtMillis, now)
            }
            const body = method === "POST" || method === "PUT" ? yield* checkBody(request) : ""
            const asCaller = Effect.provideService(httpEffect, Caller, caller)
            // The engine attributes payments and subscriptions created in this request to the app.
            const run = caller.app === null ? asCaller : Effect.provideService(asCaller, CallingApp, caller.app)
            const key = request.headers["idempotency-key"]
            let response: HttpServerResponse.HttpServerResponse
            if (method === "POST" && CREATING_ENDPOINTS.has(endpoint.identifier) && key !== undefined && key !== "") {
              if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
                return yield* usage(400, PROTOCOL_REASONS.idempotencyKeyTooLong, `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`)
              }
              const outcome = yield* idempotency.begin(caller.organisation, key, requestFingerprint(method, path, body))
              switch (outcome._tag) {
                case "Replay":
                  response = replay(outcome.response)
                  break
                case "Conflict":
                  return yield* new InvalidState({
                    reason: PROTOCOL_REASONS.idempotentCreationConflict,
                    message: "A resource has already been created with this idempotency key",
                    ...(outcome.resourceId === null ? {} : { links: { conflicting_resource_id: outcome.resourceId } })
                  })
                case "InProgress":
                  return yield* new InvalidState({ reason: "conflict", message: "A request with this idempotency key is in progress" })
                case "Fresh": {
                  response = yield* Effect.onError(run, () => idempotency.abandon(caller.organisation, key))
                  const stored = toStored(response, group.identifier)
                  yield* stored === undefined
                    ? idempotency.abandon(caller.organisation, key)
                    : idempotency.complete(caller.organisation, key, stored)
                }
              }
            } else {
              response = yield* run
            }
            return limitHeaders === undefined ? response : HttpServerResponse.setHeaders(response, limitHeaders)
          })
          // The request id and the time are read only on the way out of a failure.
          return yield* Effect.catch(guarded, (error: unknown) =>
            Effect.flatMap(CurrentRequestId, (requestId) =>
              Effect.flatMap(Clock.currentTimeMillis, (now) => failureResponse(error, requestId, now))))
        })
    })
  })
)
