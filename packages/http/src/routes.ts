import { HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"
import type { ApiHandler } from "./api-request.ts"

/**
 * The API's routing, derived from its `HttpApi` definition: every endpoint's method and path come
 * from the declaration (as the OpenAPI document does), and its handler from a table with one entry
 * per group and endpoint, which the type below makes complete. Paths are matched segment by
 * segment: a fixed segment wins over a parameter at the same place, so `/outbound_payments/withdrawal`
 * is never read as an id.
 */

/** One handler per endpoint of every group of the API, keyed as the definition names them. */
export type RouteTable<Groups extends HttpApiGroup.Constraint> = {
  readonly [G in Groups as HttpApiGroup.Identifier<G>]: {
    readonly [E in HttpApiGroup.Endpoints<G> as HttpApiEndpoint.Identifier<E>]: ApiHandler
  }
}

export interface Route {
  readonly group: string
  readonly endpoint: string
  readonly method: string
  readonly path: string
  readonly handler: ApiHandler
}

type Segment = { readonly _tag: "Fixed"; readonly text: string } | { readonly _tag: "Param"; readonly name: string }

interface CompiledRoute {
  readonly route: Route
  readonly segments: ReadonlyArray<Segment>
}

export interface RouteMatch {
  readonly route: Route
  readonly params: Readonly<Record<string, string>>
}

export interface Router {
  readonly routes: ReadonlyArray<Route>
  /** The route for a method and a path (no query string), with its decoded parameters. */
  readonly find: (method: string, path: string) => RouteMatch | undefined
}

const segmentsOf = (path: string): ReadonlyArray<Segment> =>
  path.split("/").slice(1).map((part): Segment => part.startsWith(":") ? { _tag: "Param", name: part.slice(1) } : { _tag: "Fixed", text: part })

/** Fixed segments sort before parameters, position by position: the more specific route is tried first. */
const bySpecificity = (a: CompiledRoute, b: CompiledRoute): number => {
  for (let i = 0; i < a.segments.length; i++) {
    const x = a.segments[i]?._tag === "Fixed" ? 0 : 1
    const y = b.segments[i]?._tag === "Fixed" ? 0 : 1
    if (x !== y) return x - y
  }
  return 0
}

const decodeSegment = (raw: string): string => {
  if (!raw.includes("%")) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    // Malformed escapes are kept as they came: no resource has such an id, so the lookup is a 404.
    return raw
  }
}

export const makeRouter = (routes: ReadonlyArray<Route>): Router => {
  // Candidates by method and number of segments: a lookup compares a handful of routes at most.
  const table = new Map<string, Array<CompiledRoute>>()
  for (const route of routes) {
    const segments = segmentsOf(route.path)
    const key = `${route.method} ${segments.length}`
    const list = table.get(key) ?? []
    list.push({ route, segments })
    table.set(key, list)
  }
  for (const list of table.values()) list.sort(bySpecificity)
  return {
    routes,
    find: (method, path) => {
      const parts = path.split("/")
      // A path starts with "/": the first part is empty.
      if (parts[0] !== "") return undefined
      const candidates = table.get(`${method} ${parts.length - 1}`)
      if (candidates === undefined) return undefined
      for (const candidate of candidates) {
        let params: Record<string, string> | undefined
        let matched = true
        for (let i = 0; i < candidate.segments.length; i++) {
          const segment = candidate.segments[i]
          const part = parts[i + 1] ?? ""
          if (segment === undefined) break
          if (segment._tag === "Fixed") {
            if (segment.text !== part) {
              matched = false
              break
            }
          } else {
            if (part === "") {
              matched = false
              break
            }
            params ??= {}
            params[segment.name] = decodeSegment(part)
          }
        }
        if (matched) return { route: candidate.route, params: params ?? {} }
      }
      return undefined
    }
  }
}

/** Every endpoint of `api` with its handler from `table`. */
export const routesOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  table: RouteTable<Groups>
): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  // The mapped type is complete by construction; read as plain records to look entries up by name.
  const handlers = table as unknown as Readonly<Record<string, Readonly<Record<string, ApiHandler> | undefined>>>
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      const handler = handlers[group.identifier]?.[endpoint.identifier]
      if (handler === undefined) throw new Error(`No handler for ${group.identifier}.${endpoint.identifier}`)
      routes.push({ group: group.identifier, endpoint: endpoint.identifier, method: endpoint.method, path: endpoint.path, handler })
    }
  })
  return routes
}
