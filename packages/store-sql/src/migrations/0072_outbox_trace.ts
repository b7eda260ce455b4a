import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The span whose unit of work appended a queued event, as a W3C `traceparent` (null when tracing
 * was off): the webhook deliveries the pump makes of it are scheduled under it, so a request's
 * trace reaches the attempts its events led to, as `due_work.trace_parent` (migration 0069) does
 * for the due work a request schedules. The trigger that queues the event cannot see the span;
 * the unit of work sets it on the rows it queued, in the same transaction, only when traced.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE outbox ADD COLUMN trace_parent text`)
})
