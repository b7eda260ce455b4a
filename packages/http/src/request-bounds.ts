import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import type { InvalidApiUsage } from "@paykit/core"
import { type ApiResponse, JSON_CONTENT_TYPE } from "./api-response.ts"
import { PROTOCOL_REASONS, usage } from "./error-response.ts"
import { REQUEST_ID_HEADER } from "./request-context.ts"

/**
 * How much a request may hold of the server, on every route (the API's, `/sandbox/`, the docs):
 * one body size and two timeouts. docs/http.md ("Bounded requests") states them for users.
 */

/** The largest request body read; a larger one is answered 413 without the rest being kept. */
export const REQUEST_BODY_MAX_BYTES = 5 * 1024 * 1024

/**
 * How long a client has to send a request's headers, from its connection or the end of its
 * previous request. Node measures it; a stalled client is answered 408 within
 * `TIMEOUT_CHECK_INTERVAL_MS` after it.
 */
export const REQUEST_HEADERS_TIMEOUT_MS = 10_000

/**
 * How long a client has to send a request's body, from the end of its headers: 5 MiB in 30 s is
 * about 1.4 Mbit/s, slower than any client the API expects; a body that stops arriving is 408.
 */
export const REQUEST_BODY_TIMEOUT_MS = 30_000

/**
 * The most fields a request body may hold: object members and array elements of a JSON body, at
 * any depth, or the fields of a form post. The largest body the API takes is an outbound payment
 * import, 1,000 entries (`OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES`) of at most 9 fields each; a body
 * past it is refused 413 before it is parsed, so no body of many fields holds the event loop (and
 * every other caller) while it is parsed and checked field by field.
 */
export const REQUEST_BODY_MAX_FIELDS = 10_000

/** How often Node looks for connections past the headers timeout. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000

export const bodyTooLarge = (limit: number = REQUEST_BODY_MAX_BYTES): InvalidApiUsage =>
  usage(413, PROTOCOL_REASONS.bodyTooLarge, `The request body is larger than ${limit} bytes`)

export const tooManyFields = (): InvalidApiUsage =>
  usage(413, PROTOCOL_REASONS.bodyTooLarge, `The request body holds more than ${REQUEST_BODY_MAX_FIELDS} fields`)

const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i

const AMPERSAND = 38
const QUOTE = 34
const BACKSLASH = 92
const COLON = 58
const COMMA = 44
const OPEN_OBJECT = 123
const OPEN_ARRAY = 91
const CLOSE_ARRAY = 93
const CLOSE_OBJECT = 125

const isJsonSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9

/** The fields of a form body, counted up to just past `max`: one more than its `&`s. */
const formFieldsUpTo = (body: string, max: number): number => {
  let count = 1
  for (let i = 0; i < body.length && count <= max; i++) if (body.charCodeAt(i) === AMPERSAND) count++
  return count
}

/**
 * The members and elements of a JSON text, counted up to just past `max` in one pass over its
 * characters, without parsing it: a member per `:` outside strings, an element per array's first
 * value and per `,` in an array. Text that is not JSON is counted as far as it goes (the parse
 * that follows refuses it).
 */
const jsonFieldsUpTo = (body: string, max: number): number => {
  // Whether each open container is an array; only the innermost is read.
  const inArray: Array<boolean> = []
  let count = 0
  let inString = false
  let firstOfArray = false
  for (let i = 0; i < body.length && count <= max; i++) {
    const c = body.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
      continue
    }
    if (isJsonSpace(c)) continue
    if (firstOfArray) {
      firstOfArray = false
      if (c !== CLOSE_ARRAY) count++
    }
    if (c === QUOTE) inString = true
    else if (c === OPEN_OBJECT) inArray.push(false)
    else if (c === OPEN_ARRAY) {
      inArray.push(true)
      firstOfArray = true
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) inArray.pop()
    else if (c === COLON) count++
    else if (c === COMMA && inArray[inArray.length - 1] === true) count++
  }
  return count
}

/**
 * True when a body holds more than `REQUEST_BODY_MAX_FIELDS` fields: a form post (by its content
 * type) counted by its `&`s, any other body as JSON. The count stops once past the limit, so a
 * refused body is not read to its end.
 */
export const holdsTooManyFields = (body: string, contentType: string | undefined): boolean =>
  (contentType !== undefined && FORM_CONTENT_TYPE.test(contentType)
    ? formFieldsUpTo(body, REQUEST_BODY_MAX_FIELDS)
    : jsonFieldsUpTo(body, REQUEST_BODY_MAX_FIELDS)) > REQUEST_BODY_MAX_FIELDS

/** True when the request declares a body over `limit`: it is refused before a byte of it is read. */
export const declaresTooLarge = (headers: IncomingHttpHeaders, limit: number = REQUEST_BODY_MAX_BYTES): boolean =>
  Number(headers["content-length"] ?? 0) > limit

/** A request with a body to come: HTTP/1.1 frames a body only by one of these two headers. */
const hasBodyFraming = (headers: IncomingHttpHeaders): boolean =>
  headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined

export interface RequestTimeouts {
  readonly headersMs: number
  readonly bodyMs: number
}

/** What a log line says of a request Node could not read. */
export interface UnreadRequest {
  readonly method: string
  readonly path: string
  readonly started: number
}

/** A refused request's id and answer. */
export interface Refusal {
  readonly requestId: string
  readonly response: ApiResponse
}

/** What Node reports on a connection it could not read a request from, as the spec's error. */
const clientErrorOf = (code: string | undefined): InvalidApiUsage => {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return requestTimeout()
  if (code === "HPE_HEADER_OVERFLOW") return usage(431, PROTOCOL_REASONS.headersTooLarge, "The request headers are too large")
  return usage(400, PROTOCOL_REASONS.malformedRequest, "The request is not valid HTTP")
}

export const requestTimeout = (): InvalidApiUsage =>
  usage(408, PROTOCOL_REASONS.requestTimeout, "The request was not received in time")

/** A response written straight to the socket: Node has no `ServerResponse` for a request it could not parse. */
const rawResponse = ({ requestId, response }: Refusal): string =>
  `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n` +
  `Content-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(response.body)}\r\n` +
  `${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${response.body}`

/** The response Node has begun on the socket, if any (it keeps it as `_httpMessage`). */
const responseStarted = (socket: Duplex): boolean => {
  const message: unknown = "_httpMessage" in socket ? socket._httpMessage : undefined
  return typeof message === "object" && message !== null && "headersSent" in message && message.headersSent === true
}

/**
 * A Node server with Node's headers timeout (checked every `TIMEOUT_CHECK_INTERVAL_MS`). Its own
 * request timeout is off: the body has its own timer (`boundBody`), which also runs once the server
 * has stopped accepting, when Node's check no longer does.
 */
export const createBoundedServer = (timeouts: RequestTimeouts): Server =>
  createServer({ headersTimeout: timeouts.headersMs, requestTimeout: 0, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS })

/**
 * Answers every error Node meets reading a request (the headers timeout, headers too large, bytes
 * that are not HTTP) with the spec's error body rather than Node's bare status line; `refuse`
 * (the dispatcher's) gives it its request id and its log line. Returns the listener it added.
 */
export const refuseClientErrors = (server: Server, refuse: (error: InvalidApiUsage, request: UnreadRequest) => Refusal) => {
  const listener = (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (socket.writable && !responseStarted(socket)) {
      socket.end(rawResponse(refuse(clientErrorOf(error.code), { method: "-", path: "-", started: performance.now() })))
    }
    socket.destroy()
  }
  server.on("clientError", listener)
  return listener
}

/**
 * Gives a request with a body `bodyMs` to deliver it. Past that, an unanswered request is
 * `timedOut` (the dispatcher answers 408 and closes the connection); whoever was reading the body
 * sees it end unfinished. An answered one (413 or 404 sent while the rest of the body was being
 * dropped) has its connection closed.
 */
export const boundBody = (req: IncomingMessage, res: ServerResponse, bodyMs: number, exchange: { timedOut(): void }): void => {
  if (!hasBodyFraming(req.headers)) return
  const timer = setTimeout(() => {
    if (req.complete) return
    if (res.headersSent) return void req.socket.destroy()
    exchange.timedOut()
  }, bodyMs)
  // Not cleared when the answer is sent: a body still arriving after an early answer (413, 401) is
  // read and dropped, and that too is bounded.
  timer.unref()
  req.once("end", () => clearTimeout(timer))
}
