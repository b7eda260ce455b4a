import { Effect, type Schema } from "effect"
import { decodeInputEffect, type InvalidApiUsage, type InvalidState, type NotFound, type OrganisationId, PAGE_SIZE_DEFAULT, type PaykitError, type StorageError, type ValidationFailed } from "@paykit/core"
import type { Page } from "@paykit/engine"
import { type ApiHandler, idParamOf } from "./api-request.ts"
import { ok } from "./api-response.ts"
import { PROTOCOL_REASONS, usage } from "./error-response.ts"
import { asQueryErrors, type ParamsSchema, queryNames, type QueryValues, queryShapeOf, toParams, unknownQueryNames } from "./query-params.ts"

/**
 * `get` and `list` of a resource over its engine service. The query string is mapped onto the
 * engine's list-parameter Schema and decoded here, at the edge, under the resource key; its field
 * errors are renamed to the query's parameters. The service gets typed parameters and holds
 * tenancy and the rules that need storage; these handlers wrap its answer in the envelope.
 */

/** A read by id: unknown is `NotFound`; a resource whose data is gone (a removed customer) may answer a state refusal. */
export type Getter<A> = (organisation: OrganisationId, id: string) => Effect.Effect<A, NotFound | InvalidState | StorageError>
/** A list: a bad parameter is `ValidationFailed`; a list under a resource (`/payout_items?payout=`) may answer that resource's errors. */
export type Lister<P, A> = (organisation: OrganisationId, params: P) => Effect.Effect<Page<A>, PaykitError>

/** A list-parameter Schema: a Struct (its fields say the wire form) that decodes. */
export type ListParamsSchema = ParamsSchema & Schema.Decoder<unknown>

/** The `meta` of every list response. */
export const listMeta = (page: { readonly before: string | null; readonly after: string | null }, limit: number) => ({
  cursors: { before: page.before, after: page.after },
  limit
})

export const getHandler = <A>(key: string, get: Getter<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(idParamOf(request), (id) => Effect.map(get(caller.organisation, id), (resource) => ok({ [key]: resource })))

/**
 * The typed parameters of a query string, its errors named as the query names them. A parameter
 * the list does not take (`statuss=paid_out`) is refused (400 `invalid_filters`, naming it and
 * the ones it takes) rather than ignored, which would answer every item as if unfiltered.
 */
export const paramsOf = <S extends ListParamsSchema>(key: string, schema: S) => {
  const shape = queryShapeOf(schema)
  const decode = decodeInputEffect(schema, key)
  const taken = queryNames(shape).join(", ")
  return (query: QueryValues): Effect.Effect<S["Type"], ValidationFailed | InvalidApiUsage> => {
    const unknown = unknownQueryNames(shape, query)
    if (unknown.length > 0) {
      const named = unknown.map((name) => `\`${name}\``).join(", ")
      return Effect.fail(usage(400, PROTOCOL_REASONS.invalidFilters, `${named} ${unknown.length === 1 ? "is not a parameter" : "are not parameters"} paykit takes on this list; it takes ${taken}`))
    }
    return Effect.mapError(decode(toParams(shape, query)), asQueryErrors)
  }
}

/** The page size a list answered with: the decoded `limit`, or the default. */
const limitOf = (params: unknown): number => {
  const limit = typeof params === "object" && params !== null ? (params as { readonly limit?: unknown }).limit : undefined
  return typeof limit === "number" ? limit : PAGE_SIZE_DEFAULT
}

/** What a list answers beside its page (the events' `linked`), read from the organisation, the parameters and the page's items. */
export type ListExtras<P, A> = (organisation: OrganisationId, params: P, items: ReadonlyArray<A>) => Effect.Effect<Readonly<Record<string, unknown>>, PaykitError>

const NO_EXTRAS = () => Effect.succeed({})

export const listHandler = <S extends ListParamsSchema, A>(key: string, schema: S, list: Lister<S["Type"], A>, extras: ListExtras<S["Type"], A> = NO_EXTRAS): ApiHandler => {
  const params = paramsOf(key, schema)
  return ({ query }, caller) =>
    Effect.flatMap(params(query), (p) =>
      list(caller.organisation, p).pipe(
        Effect.mapError(asQueryErrors),
        Effect.flatMap((page) =>
          Effect.map(extras(caller.organisation, p, page.items), (more) => ok({ [key]: page.items, meta: listMeta(page, limitOf(p)), ...more })))
      ))
}

/** A list with no pages (institutions): the items under the key, the parameters still the engine's. */
export const plainListHandler = <S extends ListParamsSchema, A>(
  key: string,
  schema: S,
  list: (organisation: OrganisationId, params: S["Type"], request: { readonly id: string }) => Effect.Effect<ReadonlyArray<A>, ValidationFailed | NotFound | StorageError>
): ApiHandler => {
  const params = paramsOf(key, schema)
  return (request, caller) =>
    // `/institutions` has no path id; `/billing_requests/:id/institutions` has one, checked first.
    Effect.flatMap(request.params["id"] === undefined ? Effect.succeed("") : idParamOf(request), (id) =>
      Effect.flatMap(params(request.query), (p) =>
        list(caller.organisation, p, { id }).pipe(
          Effect.mapError(asQueryErrors),
          Effect.map((items) => ok({ [key]: items }))
        )))
}

/** A read of one answer under a path id, with query parameters (`/funds_availability/:id?amount=`). */
export const queryReadHandler = <S extends ListParamsSchema, A>(
  key: string,
  schema: S,
  read: (organisation: OrganisationId, id: string, params: S["Type"]) => Effect.Effect<A, PaykitError>
): ApiHandler => {
  const params = paramsOf(key, schema)
  return (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) =>
      Effect.flatMap(params(request.query), (p) =>
        read(caller.organisation, id, p).pipe(Effect.mapError(asQueryErrors), Effect.map((answer) => ok({ [key]: answer })))))
}

/** A paged list under a path id (`/payment_accounts/:id/transactions`): the page under `key`, with `meta`. */
export const nestedListHandler = <S extends ListParamsSchema, A>(
  key: string,
  schema: S,
  list: (organisation: OrganisationId, id: string, params: S["Type"]) => Effect.Effect<Page<A>, PaykitError>
): ApiHandler => {
  const params = paramsOf(key, schema)
  return (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) =>
      Effect.flatMap(params(request.query), (p) =>
        list(caller.organisation, id, p).pipe(
          Effect.mapError(asQueryErrors),
          Effect.map((page) => ok({ [key]: page.items, meta: listMeta(page, limitOf(p)) }))
        )))
}
