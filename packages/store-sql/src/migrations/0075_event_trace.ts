import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The span whose unit of work appended an event, on the event's own row (a W3C `traceparent`,
 * null when tracing was off), written with it: the outbox pump reads it with the event, so the
 * webhook deliveries made of it join the span's trace. Migration 0072 kept it on the outbox row
 * instead, set by an update after the append had queued it; on PGlite, which has no autovacuum to
 * refresh a table's statistics, that update's prepared plan grew dearer as the outbox filled
 * (17 ms a page of a bank report at 10,000 entries applied, 61 ms at 40,000). Rows queued before
 * this migration keep theirs on the outbox row, which the pump still reads when the event has none.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE events ADD COLUMN trace_parent text`)
})
