import { Cause, Config, Effect, Redacted } from "effect"
import { CitusRefused } from "@paykit/store-sql"
import type { Database } from "./config.ts"
import { ServerLog, type ServerLogLine } from "./server-log.ts"

/**
 * Why the server could not start, as one log line that says what to do: a database that is
 * missing, refuses the connection or refuses the credentials is named with the remedy, not as
 * the driver's nested stack trace (which stays in the line's `cause`, for a bug report).
 */

interface Found {
  readonly code: string | undefined
  readonly message: string
}

/** The errors along a failure's `cause` chain (the SQL error, then the driver's), outermost first. */
const chainOf = (error: unknown): ReadonlyArray<Found> => {
  const found: Array<Found> = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    const code: unknown = Reflect.get(current, "code")
    const message: unknown = Reflect.get(current, "message")
    found.push({ code: typeof code === "string" ? code : undefined, message: typeof message === "string" ? message : String(current) })
    // A refused connection to a host with several addresses is an AggregateError of them.
    const inner: unknown = Reflect.get(current, "errors")
    current = Array.isArray(inner) && inner.length > 0 ? inner[0] : Reflect.get(current, "cause")
  }
  return found
}

/** Where DATABASE_URL points, without its credentials. */
const targetOf = (database: Database | undefined) => {
  if (database?._tag !== "Postgres") return undefined
  try {
    const url = new URL(Redacted.value(database.url))
    return { host: url.hostname, port: url.port === "" ? "5432" : url.port, name: decodeURIComponent(url.pathname.slice(1)) || url.username, user: url.username }
  } catch {
    return undefined
  }
}

/** What to do about the failure, when it is one the person starting the server can fix. */
const remedyOf = (codes: ReadonlySet<string>, database: Database | undefined): string | undefined => {
  const target = targetOf(database)
  if (target === undefined) return undefined
  const where = `${target.host}:${target.port}`
  if (codes.has("3D000")) {
    return `PostgreSQL at ${where} has no database "${target.name}": create it (createdb -h ${target.host} -p ${target.port} -U ${target.user || "postgres"} ${target.name}) or set DATABASE_URL to an existing database`
  }
  if (codes.has("ECONNREFUSED")) {
    return `nothing accepts connections at ${where}: start PostgreSQL there, or set DATABASE_URL to where it runs (unset DATABASE_URL to use the embedded PGlite)`
  }
  if (codes.has("ENOTFOUND") || codes.has("EAI_AGAIN")) return `the host "${target.host}" in DATABASE_URL is not found: fix DATABASE_URL`
  if (codes.has("28P01") || codes.has("28000")) return `PostgreSQL at ${where} refused the user "${target.user}": fix the user or password in DATABASE_URL`
  if (codes.has("ETIMEDOUT")) return `the connection to ${where} timed out: check that PostgreSQL runs there and DATABASE_URL names it`
  return undefined
}

/** The one line a failed start prints: what went wrong (`failed`, then why) and what to do. */
export const startFailureLine = (cause: Cause.Cause<unknown>, database: Database | undefined, failed = "the server could not start"): ServerLogLine => {
  const squashed = Cause.squash(cause)
  // A cluster paykit cannot use as it is: the refusal is the line, what to do included.
  if (squashed instanceof CitusRefused) return { level: "error", msg: `${failed}: ${squashed.message}`, code: "citus_refused" }
  const chain = chainOf(squashed)
  const codes = new Set(chain.flatMap((found) => found.code === undefined ? [] : [found.code]))
  const remedy = remedyOf(codes, database)
  // A wrapper's message that repeats the one it wraps (`SourceError: <message>`) gives way to it.
  const messages = [...new Set(chain.map((found) => found.message).filter((message) => message !== ""))]
  const reason = messages.filter((message) => !messages.some((other) => other !== message && message.includes(other))).join(": ")
  return {
    level: "error",
    msg: `${failed}: ${remedy ?? reason}`,
    ...(remedy === undefined ? {} : { error: reason }),
    ...(codes.size === 0 ? {} : { code: [...codes][codes.size - 1] }),
    // The stack is for a failure nobody foresaw; a known one, or a setting refused, needs only its message.
    ...(remedy === undefined && !(squashed instanceof Config.ConfigError) ? { cause: Cause.pretty(cause) } : {})
  }
}

/** Prints `startFailureLine` for a failure (an interruption, a stop asked for, prints nothing); for `Effect.tapCause`. */
export const reportFailure = (database: Database | undefined, failed?: string) => (cause: Cause.Cause<unknown>) =>
  Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.gen(function*() {
    const log = yield* ServerLog
    log(startFailureLine(cause, database, failed))
  })
