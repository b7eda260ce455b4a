import type { Effect } from "effect"
import { type NotFound, type PaykitError, pathIdOf } from "@paykit/core"
import type { ApiResponse } from "./api-response.ts"
import type { QueryValues } from "./query-params.ts"
import type { CallerShape } from "./request-context.ts"

/** The path of a request target, without its query. */
export const pathnameOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

/**
 * A request as an endpoint's handler sees it: routed (path parameters decoded), the query string
 * parsed into its raw values, the body read whole as text. The gateway has already checked the
 * version header, the token, the scope, the rate limit and the body's content type and syntax.
 */
export interface ApiRequest {
  readonly method: string
  /** The path without the query string. */
  readonly path: string
  /** The prefix a host mounts the API under (`"/paykit"`), absent or `""` for none: links a page writes to itself carry it. */
  readonly basePath?: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly params: Readonly<Record<string, string>>
  readonly query: QueryValues
  /** The body as sent. */
  readonly body: string
  /** The body's bytes as sent, on a route that takes a raw body (`RawBody`); its `body` is then empty. */
  readonly bytes?: Uint8Array
  /** The body parsed once, when it was read; the gateway refuses `Invalid` before any handler runs. */
  readonly json: JsonBody
}

export type JsonBody =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Parsed"; readonly value: unknown }
  | { readonly _tag: "Invalid" }

const EMPTY_BODY: JsonBody = { _tag: "Empty" }

export const parseJsonBody = (text: string): JsonBody => {
  if (text.trim() === "") return EMPTY_BODY
  try {
    return { _tag: "Parsed", value: JSON.parse(text) as unknown }
  } catch {
    return { _tag: "Invalid" }
  }
}

/** An endpoint: what it answers for a request from a caller. Engine errors become the spec's error body. */
export type ApiHandler = (request: ApiRequest, caller: CallerShape) => Effect.Effect<ApiResponse, PaykitError>

/** A header's value; a repeated header gives its first value. */
export const headerOf = (request: ApiRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return value === undefined || typeof value === "string" ? value : value[0]
}

/** A path parameter of the route (routes declare each one they read, so it is present). */
export const paramOf = (request: ApiRequest, name: string): string => request.params[name] ?? ""

/**
 * The route's `:id`, checked against the id grammar of the collection the path starts with
 * (`/billing_requests/:id/actions/fulfil` holds billing request ids): a malformed id is a 404
 * before any storage sees it. Every handler reads its path id through here.
 */
export const idParamOf = (request: ApiRequest): Effect.Effect<string, NotFound> =>
  pathIdOf(collectionOf(request.path), paramOf(request, "id"))

/** The first segment of a path (`/billing_requests/BR1/actions/fulfil` -> `billing_requests`), cut out rather than split: every request with an id reads it. */
const collectionOf = (path: string): string => {
  const end = path.indexOf("/", 1)
  return end === -1 ? path.slice(1) : path.slice(1, end)
}
