import { Context } from "effect"

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
