import type { IncomingHttpHeaders, IncomingMessage } from "node:http"
import { REQUEST_BODY_MAX_BYTES } from "./request-bounds.ts"

/**
 * What the dispatcher needs of a request a host hands it rather than one its own listener took:
 * the path relative to the mount, a body a host's parser already read, a web `Request`'s headers
 * and body. docs/embedding-http.md states the rules for users.
 */

/**
 * `basePath` as a prefix: a leading slash, no trailing one; `""` for none. A prefix is a path, so
 * it is refused with anything a path cannot hold.
 */
export const normaliseBasePath = (basePath: string | undefined): string => {
  if (basePath === undefined) return ""
  const trimmed = basePath.replace(/\/+$/, "")
  if (trimmed === "") return ""
  const prefix = trimmed.startsWith("/") ? trimmed : `/${trimmed}`
  if (!/^(\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/.test(prefix)) throw new TypeError(`basePath must be a URL path such as "/paykit", not ${JSON.stringify(basePath)}`)
  return prefix
}

/**
 * The request target without the prefix, or undefined when it is not under it. `/paykit` and
 * `/paykit?x` are the mount's root; `/paykitten` is not under `/paykit`.
 */
export const withinBasePath = (basePath: string, target: string): string | undefined => {
  if (basePath === "") return target
  if (!target.startsWith(basePath)) return undefined
  const rest = target.slice(basePath.length)
  if (rest === "") return "/"
  if (rest.startsWith("/")) return rest
  if (rest.startsWith("?")) return `/${rest}`
  return undefined
}

const isFormBody = (headers: IncomingHttpHeaders): boolean =>
  (headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")

/** A parsed form (`express.urlencoded()`) written back: flat fields as they came, anything else as JSON text. */
const formText = (fields: object): string =>
  new URLSearchParams(Object.entries(fields).map(([name, value]): [string, string] => [name, typeof value === "string" ? value : JSON.stringify(value)])).toString()

const bytesText = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("utf8")
  return undefined
}

/**
 * The body a host's parser already read, or undefined when the stream is still to be read. Raw
 * bytes first (`req.rawBody`, which many hosts' parsers keep, or a `Buffer`/string `req.body` from
 * `express.raw()`/`express.text()`), so the idempotency check sees the exact body; a parsed object
 * (`express.json()`, `express.urlencoded()`) is serialised again as the fallback, which keeps its
 * meaning but not its spacing. A stream read by someone who kept nothing is an empty body: the
 * request is answered (most likely 400 or 422), never left waiting for bytes that are gone.
 */
export const parsedBodyOf = (req: IncomingMessage): string | undefined => {
  const raw = bytesText(Reflect.get(req, "rawBody"))
  if (raw !== undefined) return raw
  const body: unknown = Reflect.get(req, "body")
  const text = bytesText(body)
  if (text !== undefined) return text
  if (typeof body === "object" && body !== null) return isFormBody(req.headers) ? formText(body) : JSON.stringify(body)
  return req.readableEnded ? "" : undefined
}

/** A web `Request`'s headers as Node names them (lower case; repeated ones joined as Node joins them). */
export const nodeHeadersOf = (headers: Headers): IncomingHttpHeaders => {
  const result: Record<string, string> = {}
  for (const [name, value] of headers) result[name] = value
  return result
}

/** Where a web body goes, as `readBody`'s reader, plus the timeout. */
export interface WebBodyReader {
  answer(body: Uint8Array): void
  tooLarge(): void
  timedOut(): void
  abandoned(): void
}

/**
 * Reads a web `Request`'s body, at most `limit` bytes and within `bodyMs`: past either,
 * the stream is cancelled and the reader told once. A stream that fails (the client went away) is
 * `abandoned`.
 */
export const readWebBody = (stream: ReadableStream<Uint8Array> | null, bodyMs: number, reader: WebBodyReader, limit: number = REQUEST_BODY_MAX_BYTES): void => {
  if (stream === null) return reader.answer(new Uint8Array(0))
  const source = stream.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  let done = false
  const finish = (then: () => void, cancel: boolean) => {
    if (done) return
    done = true
    clearTimeout(timer)
    if (cancel) source.cancel().catch(() => {})
    then()
  }
  const timer = setTimeout(() => finish(() => reader.timedOut(), true), bodyMs)
  const next = (): void => {
    source.read().then(({ done: ended, value }) => {
      if (done) return
      if (ended) return finish(() => reader.answer(Buffer.concat(chunks)), false)
      size += value.byteLength
      if (size > limit) return finish(() => reader.tooLarge(), true)
      chunks.push(value)
      next()
    }, () => finish(() => reader.abandoned(), false))
  }
  next()
}
