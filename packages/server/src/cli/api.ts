import { API_VERSION } from "@paykit/core/limits"
import { CommandFailure, type Io, type Options, type Parsed, stringOf } from "./args.ts"
import { exchange, type HttpAnswer } from "./http.ts"

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
  /** A request with raw bytes as its body, answered as bytes (a bank file's exact bytes) with the answer's headers. */
  readonly raw: (method: string, path: string, body?: Uint8Array) => Promise<HttpAnswer>
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
  return new CommandFailure(`${status} ${text}${more.length === 0 ? "" : ` (${more.join("; ")})`}`, body, status)
}

const jsonOf = (answer: HttpAnswer): unknown => {
  try {
    return answer.body === "" ? {} : JSON.parse(answer.body)
  } catch {
    return { body: answer.body }
  }
}

export const apiOf = (parsed: Parsed, io: Io): Api => {
  const base = (stringOf(parsed, "url") ?? io.env["PAYKIT_URL"] ?? DEFAULT_URL).replace(/\/+$/, "")
  const token = stringOf(parsed, "token") ?? io.env["PAYKIT_TOKEN"] ?? io.env["PAYKIT_SANDBOX_TOKEN"]
  if (token === undefined || token === "") throw new CommandFailure("no token: give --token, or set PAYKIT_TOKEN")
  /** The exchange, its answer when 2xx; else the API's refusal as a `CommandFailure`. */
  const send = async (method: string, path: string, body: { readonly type: string; readonly data: string | Uint8Array } | undefined): Promise<HttpAnswer> => {
    let answer: HttpAnswer
    try {
      answer = await exchange(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          "gocardless-version": API_VERSION,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": body.type })
        },
        ...(body === undefined ? {} : { body: body.data })
      })
    } catch (error) {
      throw new CommandFailure(`no answer from ${base}: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (answer.status < 200 || answer.status > 299) throw failureOf(answer.status, jsonOf(answer))
    return answer
  }
  const request = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const json = jsonOf(await send(method, path, body === undefined ? undefined : { type: "application/json", data: JSON.stringify(body) }))
    return typeof json === "object" && json !== null ? json as Record<string, unknown> : {}
  }
  const raw = (method: string, path: string, body?: Uint8Array) =>
    send(method, path, body === undefined ? undefined : { type: "application/octet-stream", data: body })
  return { base, request, raw }
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
