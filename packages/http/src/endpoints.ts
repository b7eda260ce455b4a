import { Schema } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import { type ParamsSchema, queryDeclaration, queryShapeOf } from "./query-params.ts"
import { page, single } from "./wire.ts"

/**
 * Endpoint declarations in the shapes the official client uses: `GET /<key>` with the engine's
 * list parameters, `GET /<key>/:id`, a creating `POST /<key>` (identifier `create`, which the
 * gateway makes idempotent), `PUT /<key>/:id`, and actions `POST /<key>/:id/actions/<name>` whose
 * body is `{"data": {...}}`. Bodies are declared with the engine's request Schemas for the OpenAPI
 * document; the handlers read them raw and the engine decodes them.
 */

export const IdParams = { id: Schema.String }

export const listEndpoint = <const K extends string, S extends Schema.Top>(key: K, resource: S, params: ParamsSchema, path: HttpRouter.PathInput = `/${key}`) =>
  HttpApiEndpoint.get("list", path, { query: queryDeclaration(queryShapeOf(params)), success: page(key, resource) })

export const getEndpoint = <const K extends string, S extends Schema.Top>(key: K, resource: S) =>
  HttpApiEndpoint.get("get", `/${key}/:id`, { params: IdParams, success: single(key, resource) })

export const createEndpoint = <const K extends string, S extends Schema.Top, P extends Schema.Top>(key: K, resource: S, request: P, path: HttpRouter.PathInput = `/${key}`) =>
  HttpApiEndpoint.post("create", path, { payload: single(key, request), success: single(key, resource).pipe(HttpApiSchema.status(201)) })

export const updateEndpoint = <const K extends string, S extends Schema.Top, P extends Schema.Top>(key: K, resource: S, request: P) =>
  HttpApiEndpoint.put("update", `/${key}/:id`, { params: IdParams, payload: single(key, request), success: single(key, resource) })

/** `{"data": {...}}`, optional: actions without parameters are sent with no body. */
const actionBody = <P extends Schema.Top>(request: P) => Schema.Struct({ data: Schema.optionalKey(request) })

export const actionEndpoint = <const N extends string, const K extends string, S extends Schema.Top, P extends Schema.Top>(
  name: N,
  key: K,
  resource: S,
  request: P
) => HttpApiEndpoint.post(name, `/${key}/:id/actions/${name}`, { params: IdParams, payload: actionBody(request), success: single(key, resource) })

/** A POST that is not a creation of the resource at its own path (`/outbound_payments/withdrawal`). */
export const postEndpoint = <const N extends string, const K extends string, S extends Schema.Top, P extends Schema.Top>(
  name: N,
  path: HttpRouter.PathInput,
  key: K,
  resource: S,
  request: P,
  options: { readonly status?: number } = {}
) => HttpApiEndpoint.post(name, path, { payload: actionBody(request), success: single(key, resource).pipe(HttpApiSchema.status(options.status ?? 200)) })

/** Actions that take no parameters declare this body. */
export const NoParameters = Schema.Struct({})
