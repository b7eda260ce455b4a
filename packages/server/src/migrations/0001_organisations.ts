import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The organisations this server hosts. The engine keys every row by organisation but has no table
 * of them: an organisation exists for the engine once it holds data. The server needs one to know
 * whether it has started before (the sandbox organisation is made on the first start only) and
 * which environment each organisation was created in.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE organisations (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  created_at timestamptz NOT NULL DEFAULT now()
)`)
})
