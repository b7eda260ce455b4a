import { Effect } from "effect"
import { API_VERSION, NotFound, type PaykitError } from "@paykit/core"
import { type AnyRoute, type ApiResponse, type GatewayRun, isPage, makeRouter, type QueryValues, type Route } from "@paykit/http"
import { type ListFilter, listFiltersOf } from "./filters.ts"

/**
 * The dashboard reads and acts through the API itself: every call is a request of the API's own
 * route table, run through its gateway with the session's token (version header, token, scope,
 * app restrictions, rate limit, the organisation's clock), then its handler. So the dashboard
 * shows what the API answers, a read-only token is refused by the API's own rule, and an
 * organisation's session reaches nothing of another's (the API looks everything up by the token's
 * organisation).
 */

export interface DashboardApi {
  /** The parsed JSON body of the API's answer to the call, or the API's error. */
  readonly call: (token: string, method: "GET" | "POST" | "PUT", path: string, query?: QueryValues, body?: unknown) => Effect.Effect<unknown, PaykitError>
  /** The API's answer to a read as it is (a bank file's bytes, with its type and name), or the API's error. */
  readonly answer: (token: string, path: string) => Effect.Effect<ApiResponse, PaykitError>
  /** Whether the API serves `GET path` (`/payments`, `/payments/:id`): what the generic pages may show. */
  readonly serves: (method: string, path: string) => boolean
  /** The filters `GET /<collection>` takes (filters.ts), none where it is no list. */
  readonly listFilters: (collection: string) => ReadonlyArray<ListFilter>
}

/** An answer's body as JSON; one that is not (none of the routes the dashboard calls) is shown as its text. */
const parsed = (body: string): unknown => {
  if (body === "") return {}
  try {
    return JSON.parse(body) as unknown
  } catch {
    return { body }
  }
}

export const makeDashboardApi = (routes: ReadonlyArray<AnyRoute>, gateway: GatewayRun): DashboardApi => {
  const router = makeRouter(routes.filter((route): route is Route => !isPage(route)))
  const filters = new Map<string, ReadonlyArray<ListFilter>>()
  const send = (token: string, method: string, path: string, query: QueryValues, body: unknown): Effect.Effect<ApiResponse, PaykitError> => {
    const match = router.find(method, path)
    if (match === undefined) return Effect.fail(new NotFound({ resource: path.split("/")[1] ?? "", id: path }))
    const request = {
      method,
      path,
      headers: { authorization: `Bearer ${token}`, "gocardless-version": API_VERSION, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      params: match.params,
      query,
      body: body === undefined ? "" : JSON.stringify(body),
      json: body === undefined ? { _tag: "Empty" as const } : { _tag: "Parsed" as const, value: body }
    }
    return gateway(match.route, request)
  }
  return {
    serves: (method, path) => router.find(method, path) !== undefined,
    listFilters: (collection) => {
      const known = filters.get(collection)
      if (known !== undefined) return known
      const route = router.find("GET", `/${collection}`)?.route
      if (route === undefined) return []
      const found = listFiltersOf(route, collection)
      filters.set(collection, found)
      return found
    },
    call: (token, method, path, query = {}, body) => Effect.map(send(token, method, path, query, body), (response) => parsed(response.body)),
    answer: (token, path) => send(token, "GET", path, {}, undefined)
  }
}
