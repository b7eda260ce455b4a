import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox queues an appended statement's events with one insert, not one per event. The row
 * trigger ran an insert of its own for each event: on a Citus worker each is a statement Citus
 * plans on its shard, 39 µs an event against 10 µs on one PostgreSQL, and the event log appends
 * up to 100 events a statement (docs/scaling.md, "Where the day's time goes on the cluster"). The
 * statement trigger reads the appended rows (its transition table) into arrays first: Citus cannot
 * run a distributed insert that reads a transition table itself. Their order is the rows' order,
 * so the queue's `seq` still follows the order the events were appended in.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE FUNCTION outbox_enqueue_appended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  organisations text[];
  ids text[];
BEGIN
  SELECT array_agg(organisation_id), array_agg(id) INTO organisations, ids FROM appended;
  INSERT INTO outbox (organisation_id, event_id) SELECT o, i FROM unnest(organisations, ids) AS u(o, i);
  RETURN NULL;
END
$$`)
  yield* sql.unsafe(`DROP TRIGGER events_outbox ON events`)
  yield* sql.unsafe(`CREATE TRIGGER events_outbox AFTER INSERT ON events REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_enqueue_appended()`)
  yield* sql.unsafe(`DROP FUNCTION outbox_enqueue()`)
})
