import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Access tokens, stored as the SHA-256 of the token only: a leaked table does not leak a usable
 * token. Requests look a token up by its hash, hence the unique index on it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE access_tokens (
  id text COLLATE "C" PRIMARY KEY,
  organisation_id text COLLATE "C" NOT NULL REFERENCES organisations (id),
  scope text NOT NULL CHECK (scope IN ('read_write', 'read_only')),
  token_hash text COLLATE "C" NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  status text NOT NULL CHECK (status IN ('active', 'revoked', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now()
)`)
  yield* sql.unsafe(`CREATE INDEX access_tokens_organisation ON access_tokens (organisation_id)`)
})
