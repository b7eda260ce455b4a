import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox's foreign key to `events` goes. Its check ran for every event appended, as
 * a plan the database session caches: on PGlite (one session for the life of the process, no
 * autovacuum) that plan was made while `events` was empty, by the statistics of the start-up's
 * ANALYZE, so every append scanned every event stored, and an import's cost grew with the
 * history (5x the time for 3x the payments). PostgreSQL did the same on a connection until
 * autovacuum analysed the table.
 *
 * The key checked nothing the design does not already hold: the only writer of outbox rows is the
 * trigger on `events` (migration 0002), which queues the event it was fired by, in its
 * transaction; and the only removal of events, retention (migration 0030), keeps every event still
 * in the outbox (`RetentionSql`). The constraint's name is the one PostgreSQL gave it in 0002.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE outbox DROP CONSTRAINT outbox_organisation_id_event_id_fkey`)
})
