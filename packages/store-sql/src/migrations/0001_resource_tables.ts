import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createResourceTable } from "./resource-table.ts"

/**
 * Every resource of the engine in one `resources` table keyed by type, so that a resource the
 * engine adds needs no migration; and the event log in `events`, which is append-only: the
 * database itself refuses to change or delete an event.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* createResourceTable("resources", { typed: true })
  yield* createResourceTable("events", { typed: false })
  yield* sql.unsafe(`CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END
$$`)
  yield* sql.unsafe(`CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_append_only()`)
})
