import { Effect } from "effect"
import { API_VERSION, NotFound, type PaykitError } from "@paykit/core"
import { type AnyRoute, type GatewayRun, isPage, makeRouter, type QueryValues, type Route } from "@paykit/http"

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
  /** Whether the API serves `GET path` (`/payments`, `/payments/:id`): what the generic pages may show. */
  readonly serves: (method: string, path: string) => boolean
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
  return {
    serves: (method, path) => router.find(method, path) !== undefined,
    call: (token, method, path, query = {}, body) => {
      const match = router.find(method, path)
      if (match === undefined) return Effect.fail(new NotFound({ resource: path.split("/")[1] ?? "", id: path }))
      const text = body === undefined ? "" : JSON.stringify(body)
      const request = {
        method,
        path,
        headers: { authorization: `Bearer ${token}`, "gocardless-version": API_VERSION, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        params: match.params,
        query,
        body: text,
        json: body === undefined ? { _tag: "Empty" as const } : { _tag: "Parsed" as const, value: body }
      }
      return Effect.map(gateway(match.route, request), (response) => parsed(response.body))
    }
  }
}
