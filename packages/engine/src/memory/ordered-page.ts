import type { Page } from "../kernel/ports/list-query.ts"

/**
 * `pageOf` over ids kept in ascending order, walking only as far as the page needs instead of
 * filtering and sorting the whole table: the cursor is found by binary search, the page is
 * collected outwards from it, and each of the two cursors of the answer needs one further match
 * in its direction. It gives exactly `pageOf`'s page (property-tested against it).
 */

/** The index of the first id greater than `id` (`ids` ascending). */
export const upperBound = (ids: ReadonlyArray<string>, id: string): number => {
  let lo = 0
  let hi = ids.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((ids[mid] as string) <= id) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The index of the first id not less than `id` (`ids` ascending). */
export const lowerBound = (ids: ReadonlyArray<string>, id: string): number => {
  let lo = 0
  let hi = ids.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((ids[mid] as string) < id) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Inserts `id` into ascending `ids`; ids are time-ordered, so this is almost always an append. */
export const insertSorted = (ids: Array<string>, id: string): void => {
  const last = ids[ids.length - 1]
  if (last === undefined || last < id) {
    ids.push(id)
    return
  }
  ids.splice(lowerBound(ids, id), 0, id)
}

/** Merges two ascending id arrays without duplicates of ids present in both. */
export const mergeSorted = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = a[i]
    const y = b[j]
    if (y === undefined || (x !== undefined && x < y)) {
      out.push(x as string)
      i++
    } else if (x === undefined || y < x) {
      out.push(y)
      j++
    } else {
      out.push(x)
      i++
      j++
    }
  }
  return out
}

/**
 * The page of `query` over the ids in `ascending`, where `matching(id)` gives the resource of a
 * matching id and undefined for one that does not match.
 */
export const pageOfAscending = <A extends { readonly id: string }>(
  ascending: ReadonlyArray<string>,
  matching: (id: string) => A | undefined,
  query: { readonly before?: string; readonly after?: string; readonly limit: number }
): Page<A> => {
  /** The index of the first match walking from `from` by `step`, or -1. */
  const nextMatch = (from: number, step: 1 | -1, stopBefore: number): number => {
    for (let i = from; step === 1 ? i < stopBefore : i > stopBefore; i += step) {
      if (matching(ascending[i] as string) !== undefined) return i
    }
    return -1
  }
  // The window of ids strictly between the cursors: [low, high).
  const low = query.before === undefined ? 0 : upperBound(ascending, query.before)
  const high = query.after === undefined ? ascending.length : lowerBound(ascending, query.after)
  const items: Array<A> = []
  let newestIndex = -1
  let oldestIndex = -1
  if (query.before !== undefined && query.after === undefined) {
    // Only `before`: the `limit` matches just newer than the cursor, newest first.
    for (let i = low; i < high && items.length < query.limit; i++) {
      const item = matching(ascending[i] as string)
      if (item === undefined) continue
      if (oldestIndex === -1) oldestIndex = i
      newestIndex = i
      items.push(item)
    }
    items.reverse()
  } else {
    for (let i = high - 1; i >= low && items.length < query.limit; i--) {
      const item = matching(ascending[i] as string)
      if (item === undefined) continue
      if (newestIndex === -1) newestIndex = i
      oldestIndex = i
      items.push(item)
    }
  }
  if (items.length === 0) return { items, before: null, after: null }
  const first = items[0] as A
  const last = items[items.length - 1] as A
  const newer = nextMatch(newestIndex + 1, 1, ascending.length) !== -1
  const older = nextMatch(oldestIndex - 1, -1, -1) !== -1
  return { items, before: newer ? first.id : null, after: older ? last.id : null }
}
