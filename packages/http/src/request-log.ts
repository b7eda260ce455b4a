import { Cause, Context } from "effect"
import { StorageError } from "@paykit/core"
import { isSqlError } from "effect/sql/SqlError"
import type { ApiResponse } from "./api-response.ts"
import { internalErrorResponse, unavailableResponse } from "./error-response.ts"
import { writeStdoutLine } from "./stdout-lines.ts"

/** One structured line per request. */
export interface RequestLogEntry {
  readonly time: string
  readonly request_id: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly duration_ms: number
}

/** Where request lines go: JSON lines on stdout unless replaced (tests and benchmarks silence it). */
export const RequestLog = Context.Reference<(entry: RequestLogEntry) => void>("@paykit/http/RequestLog", {
  defaultValue: () => (entry) => writeStdoutLine(JSON.stringify({ level: "info", msg: "request", ...entry }))
})

export const silentRequestLog = (_entry: RequestLogEntry): void => {}

/**
 * Where defects (bugs, never bad input) are reported, with the request id the client was given
 * in its 500 body: JSON lines on stderr unless replaced.
 */
export const DefectLog = Context.Reference<(requestId: string, cause: Cause.Cause<unknown>) => void>("@paykit/http/DefectLog", {
  defaultValue: () => (requestId, cause) =>
    void process.stderr.write(`${JSON.stringify({ level: "error", msg: "defect", request_id: requestId, cause: Cause.pretty(cause) })}\n`)
})

/**
 * The steps every request takes, written once for the dispatcher: its log line when answered, and
 * the 500 of a defect.
 */

/** Writes the request's line; the entry is built only for a log that writes it (the silent one, in tests and benchmarks, does not). */
export const logAnswer = (
  log: (entry: RequestLogEntry) => void,
  request: { readonly requestId: string; readonly method: string; readonly path: string; readonly started: number },
  status: number
): void => {
  if (log === silentRequestLog) return
  log({
    time: new Date().toISOString(),
    request_id: request.requestId,
    method: request.method,
    path: request.path,
    status,
    duration_ms: Math.round((performance.now() - request.started) * 1000) / 1000
  })
}

/**
 * Whether the request died because the storage could not be reached, or failed in a way a retry
 * may mend: a retryable `StorageError` (a lost or refused connection, SQLSTATE class 08, on Citus
 * a worker down; a serialization failure, a deadlock), or a SQL error of a lost connection that
 * reached here untyped (`effect/sql`'s `ConnectionError`).
 */
export const storageUnreachable = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) =>
    Cause.isDieReason(reason) && (
      (reason.defect instanceof StorageError && reason.defect.retryable) ||
      (isSqlError(reason.defect) && reason.defect.reason._tag === "ConnectionError")
    )
  )

/**
 * The answer to a request that died: the 500 body that reveals nothing, or a 503 when the storage
 * could not be reached (`storageUnreachable`). The cause is reported unless it is an interruption
 * alone, which is no bug: the client went away (mid-body, or cut by the body timeout) or the server
 * is stopping, and nobody reads the answer.
 */
export const defectAnswer = (
  report: (requestId: string, cause: Cause.Cause<unknown>) => void,
  requestId: string,
  cause: Cause.Cause<unknown>,
  documentationBase?: string
): ApiResponse => {
  if (!Cause.hasInterruptsOnly(cause)) report(requestId, cause)
  return storageUnreachable(cause) ? unavailableResponse(requestId, documentationBase) : internalErrorResponse(requestId, documentationBase)
}
