import { Cause, Context, Layer, Logger, type LogLevel, References } from "effect"
import { writeStdoutLine } from "@paykit/http"

/**
 * Where the server's own lines go (start-up, shutdown, and every `Effect.log*` of the engine and its
 * fibers through `jsonLogger`): one JSON object per line on stdout, like the http package's
 * request lines, so one log shipper (or `jq`) reads both. Tests replace it.
 */
export type ServerLogLine = { readonly level: "debug" | "info" | "warn" | "error"; readonly msg: string } & Readonly<Record<string, unknown>>

/** JSON of anything a log line may carry: bigints as strings, and a value JSON cannot take as its text. */
export const jsonLine = (value: unknown): string => {
  try {
    // JSON.stringify answers undefined (typed string) for undefined and functions.
    const text: string | undefined = JSON.stringify(value, (_key, v: unknown) => typeof v === "bigint" ? v.toString() : v)
    return text ?? JSON.stringify(String(value))
  } catch {
    return JSON.stringify({ level: "error", msg: "a log line could not be written as JSON", text: String(value) })
  }
}

/** A line as the server writes it by default: JSON on stdout, with its time. */
export const stdoutLog = (line: ServerLogLine): void => writeStdoutLine(jsonLine({ time: new Date().toISOString(), ...line }))

export const ServerLog = Context.Reference<(line: ServerLogLine) => void>("@paykit/server/ServerLog", {
  defaultValue: () => stdoutLog
})

const LEVELS: Readonly<Record<LogLevel.LogLevel, ServerLogLine["level"]>> = {
  All: "debug",
  Trace: "debug",
  Debug: "debug",
  Info: "info",
  Warn: "warn",
  Error: "error",
  Fatal: "error",
  None: "info"
}

/** A message's parts as text: the first is the line's `msg`, the others its `details`. */
const textOf = (part: unknown): string => typeof part === "string" ? part : jsonLine(part)

/**
 * Effect's logger for the server's runtime: each `Effect.log*` (the due-work worker's failures,
 * the webhook attempts' warnings) as one `ServerLog` line, its annotations as fields and its cause
 * rendered into the `cause` field, instead of Effect's multi-line pretty text.
 */
export const jsonLogger = Logger.make<unknown, void>(({ message, logLevel, cause, fiber }) => {
  const [first, ...rest] = Array.isArray(message) ? message : [message]
  fiber.getRef(ServerLog)({
    level: LEVELS[logLevel],
    msg: textOf(first),
    ...(rest.length === 0 ? {} : { details: rest.map(textOf) }),
    ...fiber.getRef(References.CurrentLogAnnotations),
    ...(cause.reasons.length === 0 ? {} : { cause: Cause.pretty(cause) }),
    fiber: `#${fiber.id}`
  })
})

/** Replaces Effect's default logger with `jsonLogger`. */
export const JsonLogger: Layer.Layer<never> = Logger.layer([jsonLogger])
