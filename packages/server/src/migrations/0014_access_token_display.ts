import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What the token lists show of a token besides its id: `display_prefix`, its first characters
 * (`paykit_rw_` and 4 of its random part), stored when paykit makes it; and `last_used_at`, when a
 * request last presented it, written at most once a minute per token (`SqlAccessTokens`). Tokens
 * made before, and those given to paykit (`PAYKIT_SANDBOX_TOKEN`), have no prefix.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE access_tokens ADD COLUMN display_prefix text`)
  yield* sql.unsafe(`ALTER TABLE access_tokens ADD COLUMN last_used_at timestamptz`)
})
