import { Effect, Result } from "effect"
import type { HttpServerResponse } from "effect/http"
import { type NotFound, validationFailed, type ValidationFailed } from "@paykit/core"
import type { Filter, ListQuery, Page, ResourceDefinition } from "@paykit/engine"
import { collect, listMeta, parsePage, parseRange, parseValues, type QueryValues } from "./list-params.ts"
import { ok, respond } from "./respond.ts"
import { Caller } from "./request-context.ts"

/**
 * `get` and `list` of a resource, generic over its engine definition: the definition's filter
 * keys are the list's query parameters (`created_at` as a range, the others as equality or
 * membership), so a filter added to the engine is served with no change here.
 */

export interface ReadSource<A, K extends string> {
  readonly get: (organisation: string, id: string) => Effect.Effect<A, NotFound>
  readonly list: (organisation: string, query: ListQuery<K>) => Effect.Effect<Page<A>>
}

export interface ReadOptions<K extends string> {
  /** Allowed values of enum filters (`status`), checked so a typo is a 422 rather than an empty page. */
  readonly enums?: { readonly [P in K]?: ReadonlyArray<string> }
  /** Most values a membership filter accepts. */
  readonly maxValues?: { readonly [P in K]?: number }
  /** Filters the list requires (`verification_details` needs `creditor`). */
  readonly required?: ReadonlyArray<K>
}

export const parseListQuery = <K extends string>(
  filterKeys: ReadonlyArray<K>,
  query: QueryValues,
  options: ReadOptions<K> = {}
): Result.Result<ListQuery<K>, ValidationFailed> => {
  const parts: Record<string, Result.Result<Filter | undefined, ValidationFailed>> = {}
  for (const key of filterKeys) {
    const enumValues = options.enums?.[key]
    const max = options.maxValues?.[key]
    parts[key] = key === "created_at"
      ? parseRange(query, key)
      : parseValues(query, key, { ...(enumValues === undefined ? {} : { allowed: enumValues }), ...(max === undefined ? {} : { max }) })
  }
  const all = collect({ page: parsePage(query), filters: collect(parts) })
  return Result.flatMap(all, ({ page, filters }) => {
    const missing = (options.required ?? []).filter((k) => filters[k] === undefined)
    if (missing.length > 0) {
      return Result.fail(validationFailed(
        missing.map((k) => ({ field: k, message: "is required", request_pointer: `/${k}`, reason: "validation_failed" }))
      ))
    }
    const defined: { [P in K]?: Filter } = {}
    for (const key of filterKeys) {
      const f = filters[key]
      if (f !== undefined) defined[key] = f
    }
    return Result.succeed({ ...page, filters: defined })
  })
}

export const readHandlers = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  definition: ResourceDefinition<A, K>,
  source: ReadSource<A, K>,
  options: ReadOptions<K> = {}
) => {
  const filterKeys = Object.keys(definition.filters) as Array<K>
  return {
    list: ({ query }: { readonly query: QueryValues }): Effect.Effect<HttpServerResponse.HttpServerResponse, never, Caller> =>
      respond(Effect.gen(function*() {
        const caller = yield* Caller
        const listQuery = yield* Effect.fromResult(parseListQuery(filterKeys, query, options))
        const page = yield* source.list(caller.organisation, listQuery)
        return ok({ [definition.name]: page.items, meta: listMeta(page, listQuery.limit) })
      })),
    get: ({ params }: { readonly params: { readonly id: string } }): Effect.Effect<HttpServerResponse.HttpServerResponse, never, Caller> =>
      respond(Effect.gen(function*() {
        const caller = yield* Caller
        const resource = yield* source.get(caller.organisation, params.id)
        return ok({ [definition.name]: resource })
      }))
  }
}
