import { API_VERSION } from "@paykit/core"
import { CommandFailure, type Io, type Options, type Parsed, stringOf } from "./args.ts"

/**
 * The commands that speak to a running server (`sandbox`, `advance`, `trigger`, `listen`, `logs`):
 * where it is (`--url`, else `PAYKIT_URL`, else the server's default address) and whose token
 * they send (`--token`, else `PAYKIT_TOKEN`, else `PAYKIT_SANDBOX_TOKEN`, the one a local sandbox
 * server is often started with). Every request carries the API's version header; an answer that
 * is not 2xx is a `CommandFailure` with the API's error message.
 */

export const DEFAULT_URL = "http://127.0.0.1:8000"

export const API_OPTIONS = {
  url: { type: "string" },
  token: { type: "string" }
} as const satisfies Options

export const API_OPTIONS_HELP = [
  `  --url <url>      the server (default: PAYKIT_URL, else ${DEFAULT_URL})`,
  "  --token <token>  the bearer (default: PAYKIT_TOKEN, else PAYKIT_SANDBOX_TOKEN)"
]

export interface Api {
  readonly base: string
  readonly request: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>
}

/** Why an answer failed, from the API's `{"error": {...}}` body when it has one. */
const failureOf = (status: number, body: unknown): CommandFailure => {
  const error = typeof body === "object" && body !== null ? Reflect.get(body, "error") : undefined
  const message = typeof error === "object" && error !== null ? Reflect.get(error, "message") : undefined
  const details = typeof error === "object" && error !== null ? Reflect.get(error, "errors") : undefined
  const fields = Array.isArray(details)
    ? details.flatMap((d: unknown) => typeof d === "object" && d !== null ? [`${String(Reflect.get(d, "field") ?? "")} ${String(Reflect.get(d, "message") ?? "")}`.trim()] : [])
    : []
  const text = typeof message === "string" ? message : `HTTP ${status}`
  // A validation error's message already names its fields; other errors' fields add to it.
  const more = fields.filter((f) => !text.includes(f))
  return new CommandFailure(`${status} ${text}${more.length === 0 ? "" : ` (${more.join("; ")})`}`, body)
}

export const apiOf = (parsed: Parsed, io: Io): Api => {
  const base = (stringOf(parsed, "url") ?? io.env["PAYKIT_URL"] ?? DEFAULT_URL).replace(/\/+$/, "")
  const token = stringOf(parsed, "token") ?? io.env["PAYKIT_TOKEN"] ?? io.env["PAYKIT_SANDBOX_TOKEN"]
  if (token === undefined || token === "") throw new CommandFailure("no token: give --token, or set PAYKIT_TOKEN")
  const request = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    let response: Response
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          "gocardless-version": API_VERSION,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ""
      throw new CommandFailure(`no answer from ${base}${cause}`)
    }
    const text = await response.text()
    let json: unknown
    try {
      json = text === "" ? {} : JSON.parse(text)
    } catch {
      json = { body: text }
    }
    if (!response.ok) throw failureOf(response.status, json)
    return typeof json === "object" && json !== null ? json as Record<string, unknown> : {}
  }
  return { base, request }
}

/** A record's field as text (`id`, `created_at`), for the human lines. */
export const field = (record: unknown, ...path: ReadonlyArray<string>): string => {
  let current: unknown = record
  for (const key of path) current = typeof current === "object" && current !== null ? Reflect.get(current, key) : undefined
  return current === undefined || current === null ? "" : typeof current === "string" ? current : JSON.stringify(current)
}

/** `body[key]`, an array of records (a list's items), or none. */
export const itemsOf = (body: Record<string, unknown>, key: string): ReadonlyArray<Record<string, unknown>> => {
  const items = body[key]
  return Array.isArray(items) ? items.filter((i): i is Record<string, unknown> => typeof i === "object" && i !== null) : []
}
