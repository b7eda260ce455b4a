import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Rate-limit windows shared by every server process on one database: a counter per organisation,
 * endpoint group and fixed window (its start, real epoch milliseconds).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE rate_limit_windows (
  organisation_id text COLLATE "C" NOT NULL,
  group_name text COLLATE "C" NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL CHECK (count >= 0),
  PRIMARY KEY (organisation_id, group_name, window_start)
)`)
  yield* sql.unsafe(`CREATE INDEX rate_limit_windows_start ON rate_limit_windows (window_start)`)
})
