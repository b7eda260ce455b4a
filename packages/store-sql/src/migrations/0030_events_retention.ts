import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Events are append-only (migration 0001) except for retention: a DELETE is let through only in a
 * transaction that declared itself the retention run (`paykit.retention` set locally to `prune`,
 * as `RetentionSql` does). An UPDATE is still refused, and so is any other DELETE.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('paykit.retention', true) = 'prune' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'events are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END
$$`)
})
