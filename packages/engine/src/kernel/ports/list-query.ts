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

/**
 * A list's order other than newest first: by the value of a filter key, then by id, ascending or
 * descending. Only rows with a value for the key are listed (as a range filter on it would), so
 * the key's extractor should give every row of the type a value (`sort_*` keys give "" for none).
 * A cursor is still the id of a row: the page goes on from that row's place in the order.
 */
export interface ListOrder<K extends string = string> {
  readonly key: K
  readonly direction: "asc" | "desc"
}

export interface ListQuery<K extends string = string> {
  readonly before?: string
  readonly after?: string
  readonly limit: number
  readonly filters?: { readonly [P in K]?: Filter }
  readonly order?: ListOrder<K>
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

/** Compares two rows' places in an order: their values (as strings, the store's byte order), then their ids. */
const compareInOrder = (a: readonly [string, string], b: readonly [string, string]): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0

/**
 * The reference semantics of an ordered page (`ListQuery.order`): every matching row that has a
 * value for the order's key, in the order of (value, id), ascending or descending. `placeOf` gives
 * a cursor's value by its id, whether or not that row matches (it is where the page goes on from);
 * a cursor naming no row gives an empty page, as a window from nowhere. The SQL adapter must
 * produce the same page; the repository contract checks that it does.
 */
export const orderedPageOf = <A extends { readonly id: string }>(
  matching: ReadonlyArray<A>,
  valueOf: (a: A) => string | null,
  direction: "asc" | "desc",
  placeOf: (id: string) => string | null | undefined,
  query: KeyedQuery
): Page<A> => {
  const sign = direction === "asc" ? 1 : -1
  const places = new Map<string, readonly [string, string]>()
  const rows: Array<A> = []
  for (const row of matching) {
    const value = valueOf(row)
    if (value === null) continue
    places.set(row.id, [value, row.id])
    rows.push(row)
  }
  const placeOfKey = (id: string): readonly [string, string] | undefined => {
    const known = places.get(id)
    if (known !== undefined) return known
    const value = placeOf(id)
    return value === null || value === undefined ? undefined : [value, id]
  }
  const cursorMissing = [query.before, query.after].some((cursor) => cursor !== undefined && placeOfKey(cursor) === undefined)
  if (cursorMissing) return { items: [], before: null, after: null }
  const ordered = rows.sort((a, b) => sign * compareInOrder(places.get(a.id) ?? ["", a.id], places.get(b.id) ?? ["", b.id]))
  return pageWindow(ordered, (r) => r.id, (a, b) => {
    const pa = placeOfKey(a)
    const pb = placeOfKey(b)
    return pa !== undefined && pb !== undefined && sign * compareInOrder(pa, pb) < 0
  }, query)
}
