import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { rowsReadAmongCustomers } from "./support/rows-read.ts"
import { customer, ORG } from "./support/fixtures.ts"

/**
 * A read of many rows by id reads those rows, never the rest of their type. Issue 42: after a bulk
 * load (statistics that put one row under the type), `id IN (...)` was planned as a scan of every
 * row of the type filtered by id, so each page of a bank report read every payment stored and a
 * report applied slower per entry the larger it was.
 *
 * Counted, not timed: the rows the read touched, from `pg_stat_xact_user_tables`, are the same
 * whether 200 or 1,200 rows of the type are stored.
 */

const WANTED = 100


/** Rows read by one `getMany` of `WANTED` ids with `stored` customers in the store. */
const readFor = (stored: number) => {
  const ids = Array.from({ length: WANTED }, (_, i) => customer(stored - WANTED - 50 + i).id)
  return rowsReadAmongCustomers(stored, (repo) =>
    Effect.gen(function*() {
      const found = yield* repo.getMany(ORG, ids)
      expect(found).toHaveLength(WANTED)
    }))
}

describe.each(DATABASES)("a read of many by id on $name", (database) => {
  for (const stored of [200, 1_200]) {
    it(`reads only the rows it names with ${stored} stored`, { timeout: 120_000 }, () =>
      Effect.runPromise(Effect.provide(
        Effect.gen(function*() {
          // Before the fix: every row of the type (200, then 1,200), each fetched.
          expect(yield* readFor(stored)).toBeLessThanOrEqual(WANTED)
        }),
        SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
      )))
  }
})
