import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Schedules the engine's `side_records` due work (`collections/side-records.ts`) for every
 * organisation the database already holds: a database made before the daily run's side records
 * (a lapsing mandate's last use, a collected payment's coming reversal, a schedule's `due_on`)
 * has resources the daily run would never read again, and that kind makes the missing records.
 * Due at once (instant 0 on any clock). A new database has no organisation yet, so nothing is
 * scheduled; the kind's name is written out, as a migration is history.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`INSERT INTO due_work (organisation_id, kind, key, due_at)
  SELECT DISTINCT organisation_id, 'side_records', 'migration-0056', 0 FROM resources
  ON CONFLICT DO NOTHING`)
})
