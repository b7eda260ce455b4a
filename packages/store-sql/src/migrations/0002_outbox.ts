import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The transactional outbox: a trigger queues every event in the transaction that appends it, so
 * no writer can forget to, and the webhook sender drains the queue with FOR UPDATE SKIP LOCKED.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE outbox (
  seq bigserial PRIMARY KEY,
  organisation_id text COLLATE "C" NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  enqueued_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organisation_id, event_id) REFERENCES events (organisation_id, id)
)`)
  yield* sql.unsafe(`CREATE FUNCTION outbox_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox (organisation_id, event_id) VALUES (NEW.organisation_id, NEW.id);
  RETURN NEW;
END
$$`)
  yield* sql.unsafe(`CREATE TRIGGER events_outbox AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION outbox_enqueue()`)
})
