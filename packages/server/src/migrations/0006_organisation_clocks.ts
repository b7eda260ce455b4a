import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * One sandbox clock per organisation: the one `sandbox_clock` offset becomes every
 * existing organisation's (store-sql's `organisation_clocks`, whose migration runs before the
 * server's), and the old table goes. Each organisation's first daily run is scheduled at start
 * (`ensureDailyRuns`), not here: it needs the engine's key for it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`INSERT INTO organisation_clocks (organisation_id, offset_ms)
  SELECT o.id, c.offset_ms FROM organisations o CROSS JOIN sandbox_clock c WHERE c.offset_ms > 0
  ON CONFLICT (organisation_id) DO NOTHING`)
  yield* sql.unsafe(`DROP TABLE sandbox_clock`)
})
