import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Partner apps and the OAuth connect server (docs/oauth.md). An app belongs to the organisation
 * that registered it; its secret, its codes and the tokens it is issued are stored as SHA-256
 * hashes only. A grant ties an issued access token to the app and the connected organisation, so
 * that a reconnect disables the earlier token, `revoke` and `introspect` answer for the app's own
 * tokens only, and the app's webhooks find the organisations connected to it. The secret the app
 * verifies its webhooks with is sealed (as webhook endpoints' are): it is copied to the endpoint
 * made in each organisation that connects.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE oauth_apps (
  id text COLLATE "C" PRIMARY KEY,
  organisation_id text COLLATE "C" NOT NULL REFERENCES organisations (id),
  creditor_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  redirect_uris jsonb NOT NULL,
  webhook_url text,
  webhook_secret_sealed text,
  client_id text COLLATE "C" NOT NULL UNIQUE,
  client_secret_hash text COLLATE "C" NOT NULL CHECK (client_secret_hash ~ '^[0-9a-f]{64}$'),
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  payment_pages_approved boolean NOT NULL DEFAULT false,
  created_at text NOT NULL
)`)
  yield* sql.unsafe(`CREATE INDEX oauth_apps_organisation ON oauth_apps (organisation_id, id)`)
  yield* sql.unsafe(`CREATE TABLE oauth_codes (
  code_hash text COLLATE "C" PRIMARY KEY CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  app_id text COLLATE "C" NOT NULL REFERENCES oauth_apps (id),
  organisation_id text COLLATE "C" NOT NULL REFERENCES organisations (id),
  scope text NOT NULL CHECK (scope IN ('read_write', 'read_only')),
  redirect_uri text NOT NULL,
  email text NOT NULL,
  expires_at bigint NOT NULL,
  used boolean NOT NULL DEFAULT false,
  token_id text COLLATE "C"
)`)
  yield* sql.unsafe(`CREATE TABLE oauth_grants (
  token_id text COLLATE "C" PRIMARY KEY REFERENCES access_tokens (id),
  app_id text COLLATE "C" NOT NULL REFERENCES oauth_apps (id),
  organisation_id text COLLATE "C" NOT NULL REFERENCES organisations (id),
  email text NOT NULL
)`)
  yield* sql.unsafe(`CREATE INDEX oauth_grants_app ON oauth_grants (app_id, organisation_id)`)
})
