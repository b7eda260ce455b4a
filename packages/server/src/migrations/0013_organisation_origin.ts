import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Who made each organisation: the operator (the first start's, those made with the sandbox token
 * or from the environment) or a signup through a partner app's consent page. Webhook endpoints
 * may reach loopback receivers only for the operator's (`WebhookTargetTrust`). Before this
 * migration the first start made the first organisation, `POST /sandbox/organisations` those
 * `made_by_operator` marks (0011), and the consent page every other one.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE organisations ADD COLUMN origin text NOT NULL DEFAULT 'signup' CHECK (origin IN ('operator', 'signup'))`)
  yield* sql.unsafe(`UPDATE organisations SET origin = 'operator'
  WHERE made_by_operator OR id = (SELECT id FROM organisations ORDER BY created_at, id LIMIT 1)`)
  yield* sql.unsafe(`ALTER TABLE organisations ALTER COLUMN origin DROP DEFAULT`)
})
