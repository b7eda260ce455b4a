import { Clock, Effect, Result } from "effect"
import { HttpServerResponse } from "effect/http"
import type { PaykitError, ValidationFailed } from "@paykit/core"
import { errorResponse } from "./error-response.ts"
import { CurrentRequestId } from "./request-context.ts"

/**
 * Handlers build their responses here. Resources are stored in their wire shape (the engine's
 * resource Schemas are both), so a response is the resource wrapped in its key, serialised once.
 */

export const ok = (body: unknown): HttpServerResponse.HttpServerResponse => HttpServerResponse.jsonUnsafe(body)

export const created = (key: string, resource: { readonly id: string }): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe({ [key]: resource }, { status: 201, headers: { location: `/${key}/${resource.id}` } })

/** Runs a handler's work, answering any engine error with the spec's error body. */
export const respond = <R>(
  work: Effect.Effect<HttpServerResponse.HttpServerResponse, PaykitError, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.catch(work, (error) =>
    Effect.gen(function*() {
      const requestId = yield* CurrentRequestId
      const now = yield* Clock.currentTimeMillis
      return errorResponse(error, requestId, now)
    }))

export const fromResult = <A>(result: Result.Result<A, ValidationFailed>): Effect.Effect<A, ValidationFailed> => Effect.fromResult(result)
