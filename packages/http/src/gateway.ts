import { Effect } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { API_VERSION, Forbidden, InvalidState, millisIn, type PaykitError, RateLimited } from "@paykit/core"
import { CallingApp, forOrganisation, withClockOffset } from "@paykit/engine"
import type { AccessTokens } from "./access-tokens.ts"
import { authenticateWith } from "./access-tokens.ts"
import { APP_RESTRICTED_REASON, type AppRestriction } from "./app-restrictions.ts"
import { type ApiRequest, headerOf } from "./api-request.ts"
import { type ApiResponse, withHeaders } from "./api-response.ts"
import { PROTOCOL_REASONS, rateLimitHeaders, usage } from "./error-response.ts"
import { IDEMPOTENCY_KEY_MAX_LENGTH, type IdempotencyStore, type KeyedCreation } from "./idempotency.ts"
import type { RateLimiter } from "./rate-limit.ts"
import type { CallerShape } from "./request-context.ts"
import type { Route } from "./routes.ts"
import { ERROR_RESPONSES } from "./wire.ts"

/**
 * The gateway every route passes through, in this order: `GoCardless-Version`, the bearer
 * token, the token's scope, the rate limit of the endpoint's group, the body's content type and
 * JSON syntax, idempotency of creations; then the handler. What applies to a route is read from
 * its declaration's annotations (`Idempotent`, `RateLimit`, `ApiProtocol` in endpoints.ts).
 */

/**
 * The gateway as the API definition declares it: bearer security and the error bodies, for the
 * OpenAPI document. `makeGateway` is what runs.
 */
export class Gateway extends HttpApiMiddleware.Service<Gateway>()("@paykit/http/Gateway", {
  security: { bearer: HttpApiSecurity.bearer },
  error: ERROR_RESPONSES
}) {}

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;.*)?$/i

const versionProblemOf = (version: string | undefined): PaykitError | undefined => {
  if (version === undefined || version === "") {
    return usage(400, PROTOCOL_REASONS.missingVersion, `The GoCardless-Version header is required; this API serves ${API_VERSION}`)
  }
  if (version !== API_VERSION) {
    return usage(400, PROTOCOL_REASONS.unknownVersion, `GoCardless-Version ${version} is not supported; this API serves ${API_VERSION}`)
  }
  return undefined
}

/** The body's syntax, and its content type on the routes that speak the API's protocol. */
const bodyProblemOf = (route: Route, request: ApiRequest): PaykitError | undefined => {
  // A raw body (a bank's report) is the handler's to read, in whatever type it comes.
  if (route.rawBody !== undefined) return undefined
  const contentType = headerOf(request, "content-type")
  if (route.apiProtocol && contentType !== undefined && !JSON_CONTENT_TYPE.test(contentType)) {
    return usage(400, PROTOCOL_REASONS.invalidContentType, `Content-Type must be application/json, got ${contentType}`)
  }
  return request.json._tag === "Invalid" ? usage(400, PROTOCOL_REASONS.invalidJson, "The request body is not valid JSON") : undefined
}

/** The resource a response created, if it is a successful creation: the one its idempotency key keeps. */
const createdResourceOf = (response: ApiResponse): string | undefined =>
  response.status >= 200 && response.status < 300 ? response.resourceId : undefined

/** A keyed creation's answer: its response, or GoCardless's 409 naming what the key created before. */
const answerOf = (outcome: KeyedCreation<ApiResponse>): Effect.Effect<ApiResponse, PaykitError> =>
  outcome._tag === "Created" ? Effect.succeed(outcome.value) : Effect.fail(
    new InvalidState({
      reason: PROTOCOL_REASONS.idempotentCreationConflict,
      message: "A resource has already been created with this idempotency key",
      links: { conflicting_resource_id: outcome.resourceId }
    })
  )

const appRefused = (restriction: AppRestriction | undefined, pagesApproved: boolean): boolean =>
  restriction === "always" || (restriction === "unless_payment_pages_approved" && !pagesApproved)

export interface GatewayPorts {
  readonly tokens: AccessTokens["Service"]
  readonly idempotency: IdempotencyStore["Service"]
  readonly limiter: RateLimiter["Service"]
}

/** Where the gateway tells the dispatcher who the caller is, once the token is known (the request log's organisation and token). */
export interface CallerSeen {
  caller: CallerShape | undefined
}

/** A request through the gateway to its route's handler; every failure is a `PaykitError` for the spec's error body. */
export type GatewayRun = (route: Route, request: ApiRequest, seen?: CallerSeen) => Effect.Effect<ApiResponse, PaykitError>

export const makeGateway = ({ tokens, idempotency, limiter }: GatewayPorts): GatewayRun => {
  /** The handler, attributed to the caller's app, idempotent when the request is a creation with a key. */
  const handleOnClock = (route: Route, request: ApiRequest, caller: CallerShape): Effect.Effect<ApiResponse, PaykitError> => {
    const handled = route.handler(request, caller)
    // The engine attributes payments and subscriptions created in this request to the app.
    const run = caller.app === null ? handled : Effect.provideService(handled, CallingApp, caller.app)
    const key = headerOf(request, "idempotency-key")
    if (!route.idempotent || key === undefined || key === "") return run
    if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      return Effect.fail(usage(400, PROTOCOL_REASONS.idempotencyKeyTooLong, `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`))
    }
    return Effect.flatMap(idempotency.once(caller.organisation, key, run, createdResourceOf), answerOf)
  }

  /**
   * The handler and its idempotency key run on the organisation's clock (a sandbox's keys age with
   * its time); the rate limit, checked before, stays on real time.
   */
  const handle = (route: Route, request: ApiRequest, caller: CallerShape): Effect.Effect<ApiResponse, PaykitError> =>
    withClockOffset(caller.clockOffsetMillis ?? 0, handleOnClock(route, request, caller))

  /** After the token: scope, rate limit, body, then the handler. */
  const authorised = (route: Route, request: ApiRequest, caller: CallerShape): Effect.Effect<ApiResponse, PaykitError> => {
    const method = request.method
    if (caller.scope === "read_only" && method !== "GET") {
      return Effect.fail(new Forbidden({ reason: PROTOCOL_REASONS.readOnlyToken, message: "This access token is read-only" }))
    }
    const restricted = caller.app !== null && appRefused(route.appRestriction, caller.appPaymentPagesApproved === true)
    if (restricted) return Effect.fail(new Forbidden({ reason: APP_RESTRICTED_REASON, message: "This endpoint is restricted for partner apps" }))
    const bodyProblem = method === "POST" || method === "PUT" ? bodyProblemOf(route, request) : undefined
    const limitGroup = route.rateLimit
    if (limitGroup === undefined) return bodyProblem === undefined ? handle(route, request, caller) : Effect.fail(bodyProblem)
    // The clock is read in the step that starts the limit's check, not in one of its own.
    return Effect.withFiber((fiber) => {
      const now = millisIn(fiber)
      return Effect.flatMap(limiter.hit(caller.organisation, limitGroup, now), (decision) => {
        if (!decision.allowed) return Effect.fail(new RateLimited({ limit: decision.limit, resetAtMillis: decision.resetAtMillis }))
        if (bodyProblem !== undefined) return Effect.fail(bodyProblem)
        const limitHeaders = rateLimitHeaders(decision.limit, decision.remaining, decision.resetAtMillis, now)
        return Effect.map(handle(route, request, caller), (response) => withHeaders(response, limitHeaders))
      })
    })
  }

  // Plain functions and as few Effect steps as the path needs: a read takes the version check, the
  // token lookup and the handler, and allocates no generator.
  return (route, request, seen) => {
    const versionProblem = route.apiProtocol ? versionProblemOf(headerOf(request, "gocardless-version")) : undefined
    if (versionProblem !== undefined) return Effect.fail(versionProblem)
    return Effect.flatMap(authenticateWith(tokens, headerOf(request, "authorization")), (caller) => {
      if (seen !== undefined) seen.caller = caller
      // Everything after the token is the caller's organisation's work (a distributed store routes by it).
      return forOrganisation(caller.organisation)(authorised(route, request, caller))
    })
  }
}
