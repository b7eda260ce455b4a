import { Effect } from "effect"
import { CROCKFORD_ALPHABET } from "@paykit/core"

/**
 * Loading a store fast for the daily-run benchmarks: rows cloned from one the services wrote, with
 * fresh ids, inserted through the repositories' `insertAll` a chunk at a time.
 */

/** Rows per insert statement while loading. */
export const CHUNK = 1_000

/**
 * A fresh id of `template`'s prefix and length, unique per `n`, in the ids' own alphabet
 * (Crockford's base 32), so that what checks an id's form (a report entry naming a payment by
 * its id) takes it.
 */
export const cloneId = (template: string, n: number): string => {
  const tail = `Z${Array.from(n.toString(32), (digit) => CROCKFORD_ALPHABET.charAt(parseInt(digit, 32))).join("")}`
  return template.slice(0, template.length - tail.length) + tail
}

/** Loads `count` rows made by `rows` through `insert`, in statements of `CHUNK` rows. */
export const inChunks = <A, E, R>(
  rows: (i: number) => A,
  count: number,
  insert: (batch: ReadonlyArray<A>) => Effect.Effect<void, E, R>
): Effect.Effect<void, E, R> =>
  Effect.forEach(Array.from({ length: Math.ceil(count / CHUNK) }, (_, c) => c), (c) =>
    insert(Array.from({ length: Math.min(CHUNK, count - c * CHUNK) }, (_, i) => rows(c * CHUNK + i))), { discard: true })
