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

/**
 * The reference semantics of a page, over every matching item sorted by id descending. Adapters
 * that cannot hold everything in memory (SQL) must produce the same page; the repository contract
 * tests check that they do.
 */
export const pageOf = <A extends { readonly id: string }>(
  matchingNewestFirst: ReadonlyArray<A>,
  query: { readonly before?: string; readonly after?: string; readonly limit: number }
): Page<A> => {
  const window = matchingNewestFirst.filter((r) =>
    (query.after === undefined || r.id < query.after) && (query.before === undefined || r.id > query.before)
  )
  // With only `before`, the page is the `limit` items just newer than the cursor.
  const items = query.before !== undefined && query.after === undefined
    ? window.slice(Math.max(0, window.length - query.limit))
    : window.slice(0, query.limit)
  const first = items[0]
  const last = items[items.length - 1]
  if (first === undefined || last === undefined) return { items, before: null, after: null }
  const newer = matchingNewestFirst.some((r) => r.id > first.id)
  const older = matchingNewestFirst.some((r) => r.id < last.id)
  return { items, before: newer ? first.id : null, after: older ? last.id : null }
}
