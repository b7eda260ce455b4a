import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox's rows by the event they queue. The unit of work that appends events sets its span on
 * the rows the trigger queued for them, by event id (migration 0072); with only the key
 * `(organisation_id, seq)` each such update read every row of the organisation waiting in the
 * outbox, so a long run of appends (a bank report applied a page at a time, while the pump is
 * behind) cost more per page the longer it ran. Retention's test that an event is no longer queued
 * reads this index too.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE INDEX outbox_event ON outbox (organisation_id, event_id)`)
})
