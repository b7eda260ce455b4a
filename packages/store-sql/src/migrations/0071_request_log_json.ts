import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The request log's bodies and query as `json` (their text, checked), not `jsonb`: nothing reads
 * inside them in SQL, and decomposing each body into jsonb on every insert was most of what a
 * logged request cost the server on PGlite (docs/benchmarks.md, "Request log").
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE request_log
  ALTER COLUMN query TYPE json USING query::json,
  ALTER COLUMN request_body TYPE json USING request_body::json,
  ALTER COLUMN response_body TYPE json USING response_body::json`)
})
