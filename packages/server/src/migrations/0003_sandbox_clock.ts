import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The sandbox clock: how far the simulated time runs ahead of the real one, in milliseconds. One
 * row (the primary key can only be `true`), so a restart resumes where the simulator left off.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE sandbox_clock (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
)`)
})
