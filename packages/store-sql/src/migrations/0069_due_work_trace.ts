import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The span that scheduled a due row, as a W3C `traceparent` (null when tracing was off): the
 * item's span, run later by any process, joins that trace (docs/operations.md, "Traces"). A
 * nullable column, which Citus adds to a distributed table's shards as it is.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE due_work ADD COLUMN trace_parent text`)
})
