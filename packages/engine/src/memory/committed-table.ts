import { insertSorted, upperBound } from "./ordered-page.ts"

/**
 * The committed rows of one in-memory table (one resource of one organisation): its ids in
 * ascending order, and its rows by id in segments of at most `SEGMENT_ROWS` new ids each.
 *
 * Why segments and not one `Map`: a hash map grows by rehashing every entry into a table twice the
 * size, which stops the process for milliseconds at 65,536 rows and for tens of milliseconds at a
 * million, and every request in flight waits; and an insert into a map of that size misses the
 * processor's caches several times. Ids are time-ordered, so a new id nearly always goes into the
 * last, small segment. A row is found by a binary search over the segments' first ids, then one
 * lookup in a small map.
 */
export const SEGMENT_ROWS = 4096

export interface CommittedTable<R> {
  /** Every id of the table, ascending. */
  readonly ids: Array<string>
  /**
   * The id that started each segment, ascending: segment `i` holds the ids from `firsts[i]` up to
   * `firsts[i + 1]`, and the first segment also any id below `firsts[0]` written later.
   */
  readonly firsts: Array<string>
  readonly segments: Array<Map<string, R>>
}

export const newCommittedTable = <R>(): CommittedTable<R> => ({ ids: [], firsts: [], segments: [] })

/**
 * The segment an id of the table belongs in: the last whose first id is not greater; an id below
 * every first id belongs in the first segment.
 */
const segmentOf = <R>(table: CommittedTable<R>, id: string): Map<string, R> | undefined =>
  table.segments[Math.max(0, upperBound(table.firsts, id) - 1)]

/**
 * A committed row, or nothing. A new id sorts after every committed one (ids are time-ordered),
 * and one comparison with the last says so, before any search.
 */
export const committedRow = <R>(table: CommittedTable<R> | undefined, id: string): R | undefined => {
  if (table === undefined) return undefined
  const last = table.ids[table.ids.length - 1]
  return last === undefined || last < id ? undefined : segmentOf(table, id)?.get(id)
}

/** Writes a row, new or replacing the one with its id. */
export const commitRow = <R>(table: CommittedTable<R>, id: string, row: R): void => {
  const last = table.ids[table.ids.length - 1]
  if (last === undefined || last < id) {
    // A new greatest id: the common case.
    table.ids.push(id)
    const tail = table.segments[table.segments.length - 1]
    if (tail !== undefined && tail.size < SEGMENT_ROWS) {
      tail.set(id, row)
    } else {
      table.firsts.push(id)
      table.segments.push(new Map([[id, row]]))
    }
    return
  }
  const segment = segmentOf(table, id)
  // A table with ids has segments; losing a write quietly would be worse than stopping.
  if (segment === undefined) throw new Error("in-memory table: ids without segments")
  if (!segment.has(id)) insertSorted(table.ids, id)
  segment.set(id, row)
}
