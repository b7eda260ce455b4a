import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * One logo per creditor, held by the database, as payer themes are (migration 0004):
 * two concurrent first uploads of a creditor's logo each find none and each insert one; with this
 * index the second insert finds the first's row and the engine answers it with a 409 `conflict`.
 * No logo was stored before this migration, so there is nothing to clean up.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE UNIQUE INDEX resources_logos_creditor ON resources (organisation_id, (filters->>'creditor'))
WHERE resource_type = 'logos'`)
})
