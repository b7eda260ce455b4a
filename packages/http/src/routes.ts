import { Context, Effect, type Schema } from "effect"
import type { PaykitError } from "@paykit/core"
import type { ApiHandler, ApiRequest } from "./api-request.ts"
import { type AppRestriction, appRestrictionOf } from "./app-restrictions.ts"
import type { ApiResponse } from "./api-response.ts"
import { type AnyEndpoint, ApiProtocol, type EndpointDeclaration, Idempotent, RateLimit, RawBody } from "./endpoints.ts"
import type { RateLimitGroup } from "./rate-limit.ts"

/**
 * The routes the dispatcher serves, bound from route tables (`EndpointDeclaration`s): every
 * endpoint's method and path come from its declaration (as the OpenAPI document does), its handler
 * from the declaration's binding over the table's services, and what the gateway does for it from
 * its annotations, all read once here. Paths are matched segment by segment: a fixed segment wins
 * over a parameter at the same place, so `/outbound_payments/withdrawal` is never read as an id;
 * a final `*` matches the rest of a path (the live server's `/sandbox/*`), and the method `*` any method.
 *
 * Pages (`PageRoute`: the OpenAPI document, the docs page, a server's root page) are routes of the
 * same router, served by the same dispatcher, but answered without the gateway: no token, no
 * version header, no caller.
 */

export interface Route {
  readonly group: string
  readonly endpoint: string
  readonly method: string
  readonly path: string
  readonly handler: ApiHandler
  /** A creation whose `Idempotency-Key` is kept (`Idempotent`). */
  readonly idempotent: boolean
  /** Its rate-limit group (`RateLimit`), if any. */
  readonly rateLimit: RateLimitGroup | undefined
  /** Whether it requires the `GoCardless-Version` header and JSON bodies (`ApiProtocol`). */
  readonly apiProtocol: boolean
  /** The most bytes of a raw body it takes (`RawBody`); undefined: a JSON or form body. */
  readonly rawBody: number | undefined
  /** The Schemas of its successful answers, for the tests that check every answer. */
  readonly success: ReadonlyArray<Schema.Top>
  /** Whether a partner app's token may not call it (`APP_RESTRICTIONS`). */
  readonly appRestriction: AppRestriction | undefined
  /** Its declaration: what the OpenAPI document and the docs page describe it from. */
  readonly declared: AnyEndpoint
}

/** A page's answer to a request: a page has no caller. */
export type PageHandler = (request: ApiRequest) => Effect.Effect<ApiResponse, PaykitError>

/** A route served without authentication (`page`): what anyone may read, such as the API's own documentation. */
export interface PageRoute {
  readonly method: string
  readonly path: string
  readonly page: PageHandler
}

/** A route of the dispatcher: an endpoint behind the gateway, or a page. */
export type AnyRoute = Route | PageRoute

export const isPage = (route: AnyRoute): route is PageRoute => "page" in route

/** A page of a route table: `GET path`, answered by `handler` without the gateway. */
export const pageRoute = (path: string, handler: PageHandler): PageRoute => ({ method: "GET", path, page: handler })

/** The route a declaration makes with `handler`: its method, path and annotations read once. */
export const routeOf = <S>({ group, endpoint }: EndpointDeclaration<S>, handler: ApiHandler): Route => ({
  group,
  endpoint: endpoint.identifier,
  method: endpoint.method,
  path: endpoint.path,
  handler,
  idempotent: Context.get(endpoint.annotations, Idempotent),
  rateLimit: Context.get(endpoint.annotations, RateLimit),
  apiProtocol: Context.get(endpoint.annotations, ApiProtocol),
  rawBody: Context.get(endpoint.annotations, RawBody),
  success: [...endpoint.success],
  appRestriction: appRestrictionOf(endpoint.method, endpoint.path),
  declared: endpoint
})

/** The routes of a table, each handler bound to `services`. */
export const bindRoutes = <S, E, R>(
  declarations: ReadonlyArray<EndpointDeclaration<S>>,
  services: Effect.Effect<S, E, R>
): Effect.Effect<ReadonlyArray<Route>, E, R> =>
  Effect.map(services, (built) => declarations.map((declaration) => routeOf(declaration, declaration.bind(built))))

/**
 * A room of a route table: the routes of one family of resources, reads and writes together. It
 * names the resources it serves (the first segment of each of its paths, which no other room
 * serves), holds its declarations (what the OpenAPI document reads) and binds them to the
 * services it takes, so adding a room changes no other room and no list of services.
 */
export interface RouteRoom<R> {
  readonly resources: ReadonlyArray<string>
  /** Readable whatever the services their handlers are bound over. */
  readonly declarations: ReadonlyArray<EndpointDeclaration<never>>
  readonly routes: Effect.Effect<ReadonlyArray<Route>, never, R>
}

export const routeRoom = <S, R>(
  resources: ReadonlyArray<string>,
  services: Effect.Effect<S, never, R>,
  declarations: ReadonlyArray<EndpointDeclaration<S>>
): RouteRoom<R> => ({ resources, declarations, routes: bindRoutes(declarations, services) })

/** What the routes of the rooms `Rooms` need: every service any of them takes. */
export type RoomServices<Rooms extends ReadonlyArray<RouteRoom<unknown>>> = Rooms[number] extends infer Room
  ? Room extends RouteRoom<infer R> ? R : never
  : never

/** The routes of rooms in the order listed, each room bound to its own services. */
export const roomRoutes = <const Rooms extends ReadonlyArray<RouteRoom<unknown>>>(
  rooms: Rooms
): Effect.Effect<ReadonlyArray<Route>, never, RoomServices<Rooms>> =>
  // `all` of a generic tuple does not resolve its services here; they are the rooms' services.
  Effect.map(Effect.all(rooms.map((room) => room.routes)), (tables) => tables.flat()) as Effect.Effect<
    ReadonlyArray<Route>,
    never,
    RoomServices<Rooms>
  >

type Segment =
  | { readonly _tag: "Fixed"; readonly text: string }
  | { readonly _tag: "Param"; readonly name: string }
  | { readonly _tag: "Rest" }

/** What the router reads of a route. */
interface RoutePath {
  readonly method: string
  readonly path: string
}

interface CompiledRoute<T extends RoutePath> {
  readonly route: T
  readonly segments: ReadonlyArray<Segment>
}

export interface RouteMatch<T extends RoutePath = AnyRoute> {
  readonly route: T
  readonly params: Readonly<Record<string, string>>
}

export interface Router<T extends RoutePath = AnyRoute> {
  readonly routes: ReadonlyArray<T>
  /** The route for a method and a path (no query string), with its decoded parameters. */
  readonly find: (method: string, path: string) => RouteMatch<T> | undefined
}

const segmentsOf = (path: string): ReadonlyArray<Segment> =>
  path.split("/").slice(1).map((part): Segment =>
    part === "*" ? { _tag: "Rest" } : part.startsWith(":") ? { _tag: "Param", name: part.slice(1) } : { _tag: "Fixed", text: part }
  )

/** Fixed segments sort before parameters, position by position: the more specific route is tried first. */
const bySpecificity = (a: CompiledRoute<RoutePath>, b: CompiledRoute<RoutePath>): number => {
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

/** The parameters of `parts` (a path split on "/") under `segments`, or `undefined` when they do not match. */
const matchOf = (segments: ReadonlyArray<Segment>, parts: ReadonlyArray<string>): Record<string, string> | undefined => {
  let params: Record<string, string> | undefined
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    const part = parts[i + 1] ?? ""
    if (segment === undefined || segment._tag === "Rest") break
    if (segment._tag === "Fixed") {
      if (segment.text !== part) return undefined
    } else {
      if (part === "") return undefined
      params ??= {}
      params[segment.name] = decodeSegment(part)
    }
  }
  return params ?? NO_PARAMS
}

const NO_PARAMS: Record<string, string> = {}

export const makeRouter = <T extends RoutePath>(routes: ReadonlyArray<T>): Router<T> => {
  // Candidates by method and number of segments: a lookup compares a handful of routes at most.
  const table = new Map<string, Array<CompiledRoute<T>>>()
  // Routes ending in `*`, tried only when no exact-length route matched (few: the live sandbox's).
  const prefixed: Array<CompiledRoute<T>> = []
  for (const route of routes) {
    const segments = segmentsOf(route.path)
    if (segments.at(-1)?._tag === "Rest") {
      prefixed.push({ route, segments })
      continue
    }
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
      if (candidates !== undefined) {
        for (const candidate of candidates) {
          const params = matchOf(candidate.segments, parts)
          if (params !== undefined) return { route: candidate.route, params }
        }
      }
      for (const candidate of prefixed) {
        if (candidate.route.method !== "*" && candidate.route.method !== method) continue
        if (parts.length - 1 < candidate.segments.length) continue
        const params = matchOf(candidate.segments, parts)
        if (params !== undefined) return { route: candidate.route, params }
      }
      return undefined
    }
  }
}
