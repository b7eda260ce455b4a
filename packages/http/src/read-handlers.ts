import { Effect } from "effect"
import { type NotFound, PAGE_SIZE_DEFAULT, type ValidationFailed } from "@paykit/core"
import type { Page } from "@paykit/engine"
import { type ApiHandler, idParamOf } from "./api-request.ts"
import { ok } from "./api-response.ts"
import { asQueryErrors, type QueryShape, singleOf, toParams } from "./query-params.ts"

/**
 * `get` and `list` of a resource over its engine service: the service holds tenancy and every
 * rule of its list parameters; these handlers only map the query string onto the parameters and
 * wrap the answer in its envelope.
 */

export type Getter<A> = (organisation: string, id: string) => Effect.Effect<A, NotFound>
export type Lister<A> = (organisation: string, params: unknown) => Effect.Effect<Page<A>, ValidationFailed>

/** The `meta` of every list response. */
export const listMeta = (page: { readonly before: string | null; readonly after: string | null }, limit: number) => ({
  cursors: { before: page.before, after: page.after },
  limit
})

export const getHandler = <A>(key: string, get: Getter<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(idParamOf(request), (id) => Effect.map(get(caller.organisation, id), (resource) => ok({ [key]: resource })))

export const listHandler = <A>(key: string, shape: QueryShape, list: Lister<A>): ApiHandler => ({ query }, caller) =>
  list(caller.organisation, toParams(shape, query)).pipe(
    Effect.mapError(asQueryErrors),
    Effect.map((page) => {
      // The engine accepted the parameters, so a given limit is a valid one.
      const limit = singleOf(query, "limit")
      return ok({ [key]: page.items, meta: listMeta(page, limit === undefined ? PAGE_SIZE_DEFAULT : Number(limit)) })
    })
  )

/** A list with no pages (institutions): the items under the key, the parameters still the engine's. */
export const plainListHandler = <A>(
  key: string,
  shape: QueryShape,
  list: (organisation: string, params: unknown, request: { readonly id: string }) => Effect.Effect<ReadonlyArray<A>, ValidationFailed | NotFound>
): ApiHandler =>
(request, caller) =>
  // `/institutions` has no path id; `/billing_requests/:id/institutions` has one, checked first.
  Effect.flatMap(request.params["id"] === undefined ? Effect.succeed("") : idParamOf(request), (id) =>
    list(caller.organisation, toParams(shape, request.query), { id }).pipe(
      Effect.mapError(asQueryErrors),
      Effect.map((items) => ok({ [key]: items }))
    ))
