import { Clock, Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import type { PaykitError } from "@paykit/core"
import { toHttpServerResponse } from "./api-response.ts"
import { errorResponse } from "./error-response.ts"
import { CurrentRequestId } from "./request-context.ts"

/**
 * For routes served by Effect's router beside the API (the server's sandbox endpoints): runs the
 * route's work, answering any engine error with the spec's error body and the request's id.
 */
export const respond = <R>(
  work: Effect.Effect<HttpServerResponse.HttpServerResponse, PaykitError, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.catch(work, (error) =>
    Effect.gen(function*() {
      const requestId = yield* CurrentRequestId
      const now = yield* Clock.currentTimeMillis
      return toHttpServerResponse(errorResponse(error, requestId, now))
    }))
