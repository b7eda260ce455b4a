import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Idempotency keys keep the id of the resource their creation made, not its response: a reused key
 * is a conflict naming that resource, never a replay (GoCardless's behaviour). A key is claimed,
 * its resource created and the id recorded in one transaction, so every committed row names its
 * resource; `resource_id` is NULL only inside that transaction. Claims that an earlier version left
 * incomplete (a crash between its separate statements) are dropped: their keys are free again.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE idempotency_keys ADD COLUMN resource_id text COLLATE "C"`)
  yield* sql.unsafe(`UPDATE idempotency_keys SET resource_id = response ->> 'resourceId'`)
  yield* sql.unsafe(`DELETE FROM idempotency_keys WHERE resource_id IS NULL`)
  yield* sql.unsafe(`ALTER TABLE idempotency_keys DROP COLUMN fingerprint, DROP COLUMN response, DROP COLUMN completed_at`)
})
