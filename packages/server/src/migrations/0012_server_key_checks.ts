import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A known value sealed with the server's key, written by the first process to start on the
 * database: every later process opens it before serving, so a process given another key refuses
 * to start instead of failing each delivery whose endpoint secret it cannot open (`key-check.ts`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE server_key_checks (
  name text COLLATE "C" PRIMARY KEY,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`)
})
