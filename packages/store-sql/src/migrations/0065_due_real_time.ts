import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Each due row carries the real instant it falls due, `due_real_at`: its `due_at` (on its
 * organisation's clock) less the organisation's offset. A poll's claim is then one range of one
 * index (`due_work_due_real`), whatever the number of organisations: until this migration it also
 * read `organisation_clocks` whole, one probe per organisation running ahead (10,000 sandbox
 * organisations made every idle poll 10,000 index probes).
 *
 * Triggers keep the column, so every writer of `due_work` (the store's statements, multi-row
 * inserts, tests) is covered: a row written with a `due_at` takes its organisation's offset, and a
 * clock that moves re-times its organisation's rows. The two are serialised per organisation by a
 * transaction-scoped advisory lock (shared for a row's write, exclusive for a clock's move), so a
 * row written while its organisation's clock moves is never left timed by the old offset, also when
 * the move is the organisation's first (no clock row yet to lock).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE due_work ADD COLUMN due_real_at bigint`)
  yield* sql.unsafe(`UPDATE due_work d SET due_real_at = d.due_at - COALESCE(
    (SELECT c.offset_ms FROM organisation_clocks c WHERE c.organisation_id = d.organisation_id), 0)`)
  yield* sql.unsafe(`ALTER TABLE due_work ALTER COLUMN due_real_at SET NOT NULL`)
  yield* sql.unsafe(`CREATE INDEX due_work_due_real ON due_work (due_real_at)`)
  yield* sql.unsafe(`CREATE FUNCTION due_work_real_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext(current_schema() || ':clock:' || NEW.organisation_id));
  NEW.due_real_at := NEW.due_at - COALESCE(
    (SELECT c.offset_ms FROM organisation_clocks c WHERE c.organisation_id = NEW.organisation_id), 0);
  RETURN NEW;
END
$$`)
  yield* sql.unsafe(`CREATE TRIGGER due_work_real_time BEFORE INSERT OR UPDATE OF due_at ON due_work
  FOR EACH ROW EXECUTE FUNCTION due_work_real_time()`)
  yield* sql.unsafe(`CREATE FUNCTION organisation_clock_to_due_work() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(current_schema() || ':clock:' || NEW.organisation_id));
  UPDATE due_work SET due_real_at = due_at - NEW.offset_ms WHERE organisation_id = NEW.organisation_id;
  RETURN NULL;
END
$$`)
  yield* sql.unsafe(`CREATE TRIGGER organisation_clock_to_due_work AFTER INSERT OR UPDATE OF offset_ms ON organisation_clocks
  FOR EACH ROW EXECUTE FUNCTION organisation_clock_to_due_work()`)
})
