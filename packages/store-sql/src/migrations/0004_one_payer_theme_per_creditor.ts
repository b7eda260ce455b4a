import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * One payer theme per creditor, held by the database: two concurrent first upserts of a creditor's
 * theme each found none and each inserted one. With this index the second insert finds the
 * first's row (`ON CONFLICT DO NOTHING` waits for it) and the engine answers it with a 409
 * `conflict`. A store that already holds several themes of one creditor keeps the most changed
 * (highest version, then newest id) and loses the others, which nothing could read: the engine
 * reads a creditor's theme as one row.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`DELETE FROM resources AS r USING resources AS keep
WHERE r.resource_type = 'payer_themes' AND keep.resource_type = 'payer_themes'
  AND r.organisation_id = keep.organisation_id
  AND r.filters->>'creditor' = keep.filters->>'creditor'
  AND (keep.version, keep.id) > (r.version, r.id)`)
  yield* sql.unsafe(`CREATE UNIQUE INDEX resources_payer_themes_creditor ON resources (organisation_id, (filters->>'creditor'))
WHERE resource_type = 'payer_themes'`)
})
