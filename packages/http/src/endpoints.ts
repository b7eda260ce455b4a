import type { OrganisationId } from "@paykit/core"
import { Context, Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import type { ApiHandler } from "./api-request.ts"
import { type ListParamsSchema, type Getter, getHandler, type Lister, listHandler } from "./read-handlers.ts"
import type { RateLimitGroup } from "./rate-limit.ts"
import { type ParamsSchema, queryDeclaration, queryShapeOf } from "./query-params.ts"
import { page, single } from "./wire.ts"
import {
  actionHandler,
  type BodyOptions,
  bodilessActionHandler,
  type Change,
  type Create,
  createHandler,
  updateHandler
} from "./write-handlers.ts"

/**
 * The route table's vocabulary: one declaration per endpoint holds its `HttpApiEndpoint` (method,
 * path, request and response Schemas, so routing, the OpenAPI document and the answer checks of
 * the tests all read it) and the binding of its handler to the services `S` the table is built
 * over. What the gateway does for an endpoint beyond authentication is said by annotations on the
 * endpoint, read once when the routes are built: `Idempotent` (a creation whose `Idempotency-Key`
 * is kept), `RateLimit` (its group of the spec's limits), `ApiProtocol` (whether it speaks the
 * API's protocol: the `GoCardless-Version` header and JSON bodies; the sandbox's own routes do not).
 */

/** A creating POST: an `Idempotency-Key` it carries is kept with what it created. */
export const Idempotent = Context.Reference<boolean>("@paykit/http/Idempotent", { defaultValue: () => false })

/** The rate-limit group the endpoint counts against; none by default (the spec limits outbound payments only). */
export const RateLimit = Context.Reference<RateLimitGroup | undefined>("@paykit/http/RateLimit", { defaultValue: () => undefined })

/** The endpoint requires the `GoCardless-Version` header and a JSON content type. */
export const ApiProtocol = Context.Reference<boolean>("@paykit/http/ApiProtocol", { defaultValue: () => true })

/**
 * The endpoint takes its body as raw bytes (a bank's report file), at most this many: not read as
 * text or JSON, whatever its content type, and handed to the handler as `ApiRequest.bytes`.
 * Undefined (the default): a JSON or form body within `REQUEST_BODY_MAX_BYTES`.
 */
export const RawBody = Context.Reference<number | undefined>("@paykit/http/RawBody", { defaultValue: () => undefined })

/** The OpenAPI tag of paykit's own endpoints, which GoCardless's API does not have (the sandbox's, OAuth apps'). */
export const PAYKIT_EXTENSION_TAG = "paykit extensions"

/** An endpoint of paykit's own: tagged `PAYKIT_EXTENSION_TAG` and marked `x-paykit-extension` in the OpenAPI document. */
export const paykitExtension = (endpoint: AnyEndpoint): AnyEndpoint =>
  endpoint.annotate(OpenApi.Transform, (operation) => ({
    ...operation,
    tags: [...(Array.isArray(operation["tags"]) ? operation["tags"] : []), PAYKIT_EXTENSION_TAG],
    "x-paykit-extension": true
  }))

/** The widest endpoint a declaration holds: routing reads its method, path and annotations, tests its success Schemas. */
export type AnyEndpoint = HttpApiEndpoint.Constraint & {
  readonly method: string
  readonly path: string
  readonly success: ReadonlySet<Schema.Top>
  readonly annotations: Context.Context<never>
  readonly annotate: <I, V>(key: Context.Key<I, V>, value: V) => AnyEndpoint
}

/** One endpoint of the table: its group (the resource key), its declaration, and its handler over the services `S`. */
export interface EndpointDeclaration<S> {
  readonly group: string
  readonly endpoint: AnyEndpoint
  readonly bind: (services: S) => ApiHandler
}

export const declare = <S>(group: string, endpoint: AnyEndpoint, bind: (services: S) => ApiHandler): EndpointDeclaration<S> => ({
  group,
  endpoint,
  bind
})

/** The declarations with an annotation on each endpoint, its value chosen by the endpoint (`RateLimit` by method). */
export const annotateEach = <S, I, V>(
  declarations: ReadonlyArray<EndpointDeclaration<S>>,
  key: Context.Key<I, V>,
  value: (endpoint: AnyEndpoint) => V
): ReadonlyArray<EndpointDeclaration<S>> =>
  declarations.map((declaration) => ({ ...declaration, endpoint: declaration.endpoint.annotate(key, value(declaration.endpoint)) }))

export const IdParams = { id: Schema.String }

/** Actions that take no parameters declare this body. */
export const NoParameters = Schema.Struct({})

/** `{"data": {...}}`, optional: actions without parameters are sent with no body. */
const actionBody = <P extends Schema.Top>(request: P) => Schema.Struct({ data: Schema.optionalKey(request) })

/** `GET /<key>` with the engine's list parameters: a page of resources. */
export const listEndpoint = <S, P extends ListParamsSchema, A>(
  key: string,
  resource: Schema.Top,
  params: P,
  bind: (services: S) => Lister<P["Type"], A>,
  path: `/${string}` = `/${key}`
): EndpointDeclaration<S> =>
  declare(
    key,
    HttpApiEndpoint.get("list", path, { query: queryDeclaration(queryShapeOf(params as ParamsSchema)), success: page(key, resource) }),
    (services) => listHandler(key, params, bind(services))
  )

/** `GET /<key>/:id`. */
export const getEndpoint = <S, A>(key: string, resource: Schema.Top, bind: (services: S) => Getter<A>): EndpointDeclaration<S> =>
  declare(key, HttpApiEndpoint.get("get", `/${key}/:id`, { params: IdParams, success: single(key, resource) }), (services) => getHandler(key, bind(services)))

/** A `GET` of a path with an id and query parameters (`path` under another resource's id, or a check), answered by the handler `bind` makes. */
export const readUnderId = <S>(
  group: string,
  name: string,
  path: `/${string}`,
  params: ListParamsSchema,
  success: Schema.Top,
  bind: (services: S) => ApiHandler
): EndpointDeclaration<S> =>
  declare(group, HttpApiEndpoint.get(name, path, { params: IdParams, query: queryDeclaration(queryShapeOf(params)), success }), bind)

/** A write: its handler made from the request Schema and the bound operation by `handler` (`createHandler`, `updateHandler`...). */
const writeEndpoint = <S, P extends Written, O>(
  key: string,
  endpoint: AnyEndpoint,
  request: P,
  bind: (services: S) => O,
  handler: (key: string, request: P, operation: O, options: BodyOptions) => ApiHandler,
  options: BodyOptions
): EndpointDeclaration<S> => declare(key, endpoint, (services) => handler(key, request, bind(services), options))

type Written = Schema.Top & Schema.Decoder<unknown>

/** The body options of actions whose attributes are all optional: `null` is no attributes, as the services have always read it. */
export const OPTIONAL_ATTRIBUTES: BodyOptions = { nullIsEmpty: true }

/** What a write declares: its resource key and Schema, its request Schema, its operation over the services, its body options. */
type WriteArgs<S, P extends Written, O> = readonly [key: string, resource: Schema.Top, request: P, bind: (services: S) => O, options?: BodyOptions]

/** A creating `POST /<key>`: idempotent, 201 with `Location`. */
export const createEndpoint = <S, P extends Written, A extends { readonly id: string }>(
  ...[key, resource, request, bind, options = {}]: WriteArgs<S, P, Create<P["Type"], A>>
): EndpointDeclaration<S> => {
  const success = single(key, resource).pipe(HttpApiSchema.status(201))
  const endpoint = HttpApiEndpoint.post("create", `/${key}`, { payload: single(key, request), success }).annotate(Idempotent, true)
  return writeEndpoint(key, endpoint, request, bind, createHandler, options)
}

/** `PUT /<key>/:id`. */
export const updateEndpoint = <S, P extends Written, A>(
  ...[key, resource, request, bind, options = {}]: WriteArgs<S, P, Change<P["Type"], A>>
): EndpointDeclaration<S> => {
  const endpoint = HttpApiEndpoint.put("update", `/${key}/:id`, { params: IdParams, payload: single(key, request), success: single(key, resource) })
  return writeEndpoint(key, endpoint, request, bind, updateHandler, options)
}

/** `POST /<key>/:id/actions/<name>`, its body declared as `request` under `data`, answered by the handler `bind` makes. */
const actionDeclaration = <S>(name: string, key: string, resource: Schema.Top, request: Schema.Top, bind: (services: S) => ApiHandler): EndpointDeclaration<S> =>
  declare(key, HttpApiEndpoint.post(name, `/${key}/:id/actions/${name}`, { params: IdParams, payload: actionBody(request), success: single(key, resource) }), bind)

/** `POST /<key>/:id/actions/<name>` with a body (under `key` or `data`, or none). */
export const actionEndpoint = <S, P extends Written, A>(
  name: string,
  ...[key, resource, request, bind, options = {}]: WriteArgs<S, P, Change<P["Type"], A>>
): EndpointDeclaration<S> => actionDeclaration(name, key, resource, request, (services) => actionHandler(key, request, bind(services), options))

/** `POST /<key>/:id/actions/<name>` that takes no attributes. */
export const bodilessActionEndpoint = <S, A>(
  name: string,
  key: string,
  resource: Schema.Top,
  bind: (services: S) => (organisation: OrganisationId, id: string) => ReturnType<Change<unknown, A>>
): EndpointDeclaration<S> => actionDeclaration(name, key, resource, NoParameters, (services) => bodilessActionHandler(key, bind(services)))
