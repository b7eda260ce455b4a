import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The stored request log (`@paykit/http`'s `RequestLogStore`, the server's
 * `SqlRequestLog`): one row per authenticated API request, keyed by organisation first, so on
 * Citus it is distributed by `organisation_id` with every other table (docs/storage.md, "Citus").
 * Its bodies are stored redacted; the token never, only its id and display prefix.
 *
 * - `request_log_newest`: the dashboard's and `paykit logs --requests`' page, newest first, and
 *   retention's oldest-first scan (the same index read backwards).
 * - `request_log_resources`: the filter by resource id (`resource_ids @> ARRAY[id]`), a GIN index
 *   whose keys are the organisation's rows' ids (organisation_id is a leading equality in the query).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE request_log (
  organisation_id text COLLATE "C" NOT NULL,
  request_id text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL,
  method text NOT NULL,
  path text COLLATE "C" NOT NULL,
  query jsonb,
  status smallint NOT NULL,
  duration_ms double precision NOT NULL,
  idempotency_key text,
  token_id text NOT NULL,
  token_prefix text,
  request_body jsonb,
  response_body jsonb,
  resource_ids text[] COLLATE "C" NOT NULL DEFAULT '{}',
  PRIMARY KEY (organisation_id, request_id)
)`)
  yield* sql.unsafe(`CREATE INDEX request_log_newest ON request_log (organisation_id, created_at DESC, request_id DESC)`)
  yield* sql.unsafe(`CREATE INDEX request_log_resources ON request_log USING gin (resource_ids)`)
})
