import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The history is append-only (migration 0005) except for retention, as the events are since
 * migration 0030: a DELETE is let through only in a transaction that declared itself the retention
 * run (`paykit.retention` set locally to `prune`), which removes the history of the webhook
 * deliveries it removes. An UPDATE is still refused, and so is any other DELETE.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE OR REPLACE FUNCTION transitions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('paykit.retention', true) = 'prune' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'transitions are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END
$$`)
})
