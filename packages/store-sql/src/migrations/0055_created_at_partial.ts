import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The `created_at` index of each resource-shaped table becomes partial (`WHERE (filters->>
 * 'created_at') IS NOT NULL`, true of every row), with the trailing `id` every filter index has.
 *
 * Why: a prepared statement's generic plan is made without its parameters' values, and on a table
 * without statistics (a new database, where ANALYZE after the migrations saw it empty) every index
 * keyed by the organisation and type costs the same one row. The whole `created_at` index, keyed
 * `(organisation_id, resource_type, created_at)`, then won the point reads over the primary key,
 * and each read walked every row of its type: an import of 4,000 outbound payments took 10x the
 * time of 1,000 on PostgreSQL, and cost followed the data stored. A partial index can serve only a
 * statement that implies its predicate: a bound on `created_at` does (its comparison is strict, so
 * a row it matches has the value), and lists and retention keep their clauses unchanged, while a
 * point read, which names no `created_at`, is left the primary key alone. (`filters ?
 * 'created_at'` would do as a predicate too, but its guessed selectivity, written into a list's
 * clauses, priced the primary key's walk in id order out of the plans.)
 * `indexes.test.ts` checks the generic plan of a point read on a table without statistics.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables: ReadonlyArray<readonly [string, string]> = [
    ["resources", "organisation_id, resource_type"],
    ["events", "organisation_id"],
    ["transitions", "organisation_id"]
  ]
  for (const [table, scope] of tables) {
    yield* sql.unsafe(`DROP INDEX ${table}_created_at`)
    yield* sql.unsafe(`CREATE INDEX ${table}_created_at ON ${table}
  (${scope}, ((filters->>'created_at') COLLATE "C"), id) WHERE (filters->>'created_at') IS NOT NULL`)
  }
})
