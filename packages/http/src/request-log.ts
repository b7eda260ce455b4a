import { Cause, Context } from "effect"

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
  defaultValue: () => (entry) => void process.stdout.write(`${JSON.stringify({ level: "info", msg: "request", ...entry })}\n`)
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
