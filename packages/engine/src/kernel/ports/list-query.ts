import type { ResourceDefinition } from "../definition.ts"

/**
 * List queries, the same for every repository and every adapter.
 *
 * Order: lists are newest first, i.e. by id descending (ids sort by creation time, see
 * `@paykit/core` ids). `after` is the id of the last (oldest) item of a page and asks for the next,
 * older page; `before` is the id of the first (newest) item and asks for the previous, newer page.
 * A page's `after` cursor is null when nothing older matches and its `before` cursor is null when
 * nothing newer matches, so a client walking `after` cursors stops on null.
 */

/** A filter on one extracted value: equality, membership in a list, or a range (timestamps). */
export type Filter =
  | { readonly op: "eq"; readonly value: string }
  | { readonly op: "in"; readonly values: ReadonlyArray<string> }
  | {
    readonly op: "range"
    readonly gt?: string
    readonly gte?: string
    readonly lt?: string
    readonly lte?: string
  }

export interface ListQuery<K extends string = string> {
  readonly before?: string
  readonly after?: string
  readonly limit: number
  readonly filters?: { readonly [P in K]?: Filter }
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly before: string | null
  readonly after: string | null
}

export const eq = (value: string): Filter => ({ op: "eq", value })
export const oneOf = (values: ReadonlyArray<string>): Filter => ({ op: "in", values })

/** Whether one extracted value passes one filter. Range bounds compare as strings (ISO timestamps). */
export const matchesFilter = (value: string | null, filter: Filter): boolean => {
  if (value === null) return false
  switch (filter.op) {
    case "eq":
      return value === filter.value
    case "in":
      return filter.values.includes(value)
    case "range":
      return (filter.gt === undefined || value > filter.gt) &&
        (filter.gte === undefined || value >= filter.gte) &&
        (filter.lt === undefined || value < filter.lt) &&
        (filter.lte === undefined || value <= filter.lte)
  }
}

export const matchesAll = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  definition: ResourceDefinition<A, K>,
  resource: A,
  filters: { readonly [P in K]?: Filter } | undefined
): boolean => {
  if (filters === undefined) return true
  for (const key of Object.keys(filters) as Array<K>) {
    const filter = filters[key]
    if (filter === undefined) continue
    if (!matchesFilter(definition.filters[key](resource), filter)) return false
  }
  return true
}

/** The pagination of a list: cursors are keys of its rows. */
export interface KeyedQuery {
  readonly before?: string
  readonly after?: string
  readonly limit: number
}

/**
 * The one page window of every list, over all its rows in the list's order (`precedes` orders two
 * keys): `after` asks for the rows that follow the cursor, `before` alone for the `limit` rows just
 * ahead of it; each cursor of the answer is null when no row lies beyond it.
 */
export const pageWindow = <A>(
  ordered: ReadonlyArray<A>,
  keyOf: (a: A) => string,
  precedes: (a: string, b: string) => boolean,
  query: KeyedQuery
): Page<A> => {
  const window = ordered.filter((r) =>
    (query.after === undefined || precedes(query.after, keyOf(r))) && (query.before === undefined || precedes(keyOf(r), query.before))
  )
  const items = query.before !== undefined && query.after === undefined
    ? window.slice(Math.max(0, window.length - query.limit))
    : window.slice(0, query.limit)
  const first = items[0]
  const last = items[items.length - 1]
  if (first === undefined || last === undefined) return { items, before: null, after: null }
  return {
    items,
    before: ordered.some((r) => precedes(keyOf(r), keyOf(first))) ? keyOf(first) : null,
    after: ordered.some((r) => precedes(keyOf(last), keyOf(r))) ? keyOf(last) : null
  }
}

/**
 * The reference semantics of a page, over every matching item sorted by id descending. Adapters
 * that cannot hold everything in memory (SQL) must produce the same page; the repository contract
 * tests check that they do.
 */
export const pageOf = <A extends { readonly id: string }>(matchingNewestFirst: ReadonlyArray<A>, query: KeyedQuery): Page<A> =>
  pageWindow(matchingNewestFirst, (r) => r.id, (a, b) => a > b, query)
