import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Idempotency keys keep the id of the resource their creation made, not its response: a reused key
 * is a conflict naming that resource, never a replay (GoCardless's behaviour). A key is claimed,
 * its resource created and the id recorded in one transaction, so every committed row names its
 * resource; `resource_id` is NULL only inside that transaction. Claims that an earlier version left
 * incomplete (a crash between its separate statements) are dropped: their keys are free again.
 *
 * The table is this package's (0003 makes it, retention prunes it), so its shape is changed here.
 * Databases where the server's own migration 0005 already made this change are left as they are:
 * the change is made only while the table still has 0003's `response` column.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const old = yield* sql<{ found: number }>`
    SELECT 1 AS found FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'idempotency_keys' AND column_name = 'response'`
  if (old.length === 0) return
  yield* sql.unsafe(`ALTER TABLE idempotency_keys ADD COLUMN resource_id text COLLATE "C"`)
  yield* sql.unsafe(`UPDATE idempotency_keys SET resource_id = response ->> 'resourceId'`)
  yield* sql.unsafe(`DELETE FROM idempotency_keys WHERE resource_id IS NULL`)
  yield* sql.unsafe(`ALTER TABLE idempotency_keys DROP COLUMN fingerprint, DROP COLUMN response, DROP COLUMN completed_at`)
})
