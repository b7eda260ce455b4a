import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The partner app a token was issued to: the app's organisation and the creditor there that
 * receives its app fees, both or neither (an organisation's own token has no app).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE access_tokens
  ADD COLUMN app_organisation_id text COLLATE "C" REFERENCES organisations (id),
  ADD COLUMN app_creditor_id text COLLATE "C",
  ADD CONSTRAINT access_tokens_app_complete CHECK ((app_organisation_id IS NULL) = (app_creditor_id IS NULL))`)
})
