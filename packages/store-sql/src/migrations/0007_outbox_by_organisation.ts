import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The webhook pump takes one organisation's waiting events, oldest first (a sandbox advance pumps
 * its own organisation's only): this index finds them without reading other organisations' rows.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE INDEX outbox_organisation_seq ON outbox (organisation_id, seq)`)
})
