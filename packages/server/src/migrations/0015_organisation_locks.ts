import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Locks that hold across every node of a Citus cluster: a row per organisation and lock name,
 * locked by the statement that names it. An advisory lock is one node's, so two processes on two
 * nodes would both take "the" lock of one organisation's clock; a row lives on one worker, whichever
 * node the statement comes from, so its lock serialises them (`clock-lock.ts`, `OAuthStore`'s
 * connection lock). On PostgreSQL and PGlite the advisory locks stay, and the table stays empty.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE organisation_locks (
  organisation_id text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  PRIMARY KEY (organisation_id, name)
)`)
})
