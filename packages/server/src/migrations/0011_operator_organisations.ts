import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Whether the operator made an organisation (`POST /sandbox/organisations`, with the sandbox
 * token or the admin secret) rather than the first start: what the operator made is trusted as
 * the operator is (such an organisation may, for one, send webhooks to loopback addresses).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE organisations ADD COLUMN made_by_operator boolean NOT NULL DEFAULT false`)
})
