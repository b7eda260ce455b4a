import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ACCESS_SCOPES, ACCESS_TOKEN_STATUSES, AccessTokens } from "@paykit/http"
import { DbInteger } from "@paykit/store-sql"

/**
 * The http package's `AccessTokens` port on SQL (`access_tokens`, migrations 0002, 0004 and 0008): a
 * request's token is found by its SHA-256 through the unique index; the token itself is never
 * stored. A partner app's token also names the app (its organisation and creditor), and every
 * token brings its organisation's clock offset.
 */

const TokenRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  scope: Schema.Literals(ACCESS_SCOPES),
  token_hash: Schema.String,
  status: Schema.Literals(ACCESS_TOKEN_STATUSES),
  app_organisation_id: Schema.NullOr(Schema.String),
  app_creditor_id: Schema.NullOr(Schema.String),
  clock_offset_ms: DbInteger,
  payment_pages_approved: Schema.NullOr(Schema.Boolean),
  app_status: Schema.NullOr(Schema.String)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TokenRow))
const decodeStatuses = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ status: Schema.Literals(ACCESS_TOKEN_STATUSES) })))

export const SqlAccessTokens: Layer.Layer<AccessTokens, never, SqlClient.SqlClient> = Layer.effect(
  AccessTokens,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // A database failure on the request path is a defect: the gateway answers it with a 500.
    return AccessTokens.of({
      findByHash: (tokenHash) =>
        // The organisation's clock comes with the token: the database keeps a copy on each (migration 0008).
        // An app's token brings its app's approval too (server migration 0010's grants): one query still.
        sql`SELECT t.id, t.organisation_id, t.scope, t.token_hash, t.status, t.app_organisation_id, t.app_creditor_id, t.clock_offset_ms,
            a.payment_pages_approved, a.status AS app_status
          FROM access_tokens t LEFT JOIN oauth_grants g ON g.token_id = t.id LEFT JOIN oauth_apps a ON a.id = g.app_id
          WHERE t.token_hash = ${tokenHash}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => {
            const row = rows[0]
            if (row === undefined) return undefined
            const record = {
              id: row.id,
              organisation: row.organisation_id,
              scope: row.scope,
              tokenHash: row.token_hash,
              status: row.status,
              clockOffsetMillis: row.clock_offset_ms
            }
            return row.app_organisation_id === null || row.app_creditor_id === null
              ? record
              : {
                ...record,
                app: { organisation: row.app_organisation_id, creditor: row.app_creditor_id },
                ...(row.payment_pages_approved === true ? { appPaymentPagesApproved: true } : {}),
                ...(row.app_status === "disabled" ? { appDisabled: true } : {})
              }
          }),
          Effect.orDie
        ),
      insert: (record) =>
        Effect.orDie(sql`INSERT INTO access_tokens (id, organisation_id, scope, token_hash, status, app_organisation_id, app_creditor_id)
          VALUES (${record.id}, ${record.organisation}, ${record.scope}, ${record.tokenHash}, ${record.status},
            ${record.app?.organisation ?? null}, ${record.app?.creditor ?? null})`),
      setStatus: (id, status) => Effect.orDie(sql`UPDATE access_tokens SET status = ${status} WHERE id = ${id}`),
      deactivate: (id) => Effect.orDie(sql`UPDATE access_tokens SET status = 'inactive' WHERE id = ${id} AND status = 'active'`),
      statusOf: (id) =>
        sql`SELECT status FROM access_tokens WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeStatuses),
          Effect.map((rows) => rows[0]?.status),
          Effect.orDie
        )
    })
  })
)
