import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ACCESS_SCOPES, ACCESS_TOKEN_STATUSES, AccessTokens } from "@paykit/http"

/**
 * The http package's `AccessTokens` port on SQL (`access_tokens`, migration 0002): a request's
 * token is found by its SHA-256 through the unique index; the token itself is never stored.
 */

const TokenRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  scope: Schema.Literals(ACCESS_SCOPES),
  token_hash: Schema.String,
  status: Schema.Literals(ACCESS_TOKEN_STATUSES)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TokenRow))

export const SqlAccessTokens: Layer.Layer<AccessTokens, never, SqlClient.SqlClient> = Layer.effect(
  AccessTokens,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // A database failure on the request path is a defect: the gateway answers it with a 500.
    return AccessTokens.of({
      findByHash: (tokenHash) =>
        sql`SELECT id, organisation_id, scope, token_hash, status FROM access_tokens WHERE token_hash = ${tokenHash}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => {
            const row = rows[0]
            return row === undefined
              ? undefined
              : { id: row.id, organisation: row.organisation_id, scope: row.scope, tokenHash: row.token_hash, status: row.status }
          }),
          Effect.orDie
        ),
      insert: (record) =>
        Effect.orDie(sql`INSERT INTO access_tokens (id, organisation_id, scope, token_hash, status)
          VALUES (${record.id}, ${record.organisation}, ${record.scope}, ${record.tokenHash}, ${record.status})`),
      setStatus: (id, status) => Effect.orDie(sql`UPDATE access_tokens SET status = ${status} WHERE id = ${id}`)
    })
  })
)
