import { Clock, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { timestampFromMillis } from "@paykit/core"
import { forOrganisation } from "@paykit/engine"
import { ACCESS_SCOPES, ACCESS_TOKEN_STATUSES, AccessTokens } from "@paykit/http"
import { accessTokenMachine, stateAfter } from "@paykit/machines"
import { DbInteger, topologyOf } from "@paykit/store-sql"
import { instantOf } from "./tokens.ts"

/**
 * The http package's `AccessTokens` port on SQL (`access_tokens`, migrations 0002, 0004 and 0008): a
 * request's token is found by its SHA-256 through the unique index; the token itself is never
 * stored. A partner app's token also names the app (its organisation and creditor), and every
 * token brings its organisation's clock offset. A lookup records when the token was last used,
 * at most once a minute (`LAST_USED_GRANULARITY_MILLIS`): most requests write nothing.
 *
 * On Citus the tokens are a reference table (a copy on every node, read where the process is) and
 * the clocks are distributed: the triggers that copy a clock onto its tokens would write every
 * node's copy from a worker's shard, which Citus refuses, so they are dropped there
 * (`SERVER_DISTRIBUTION`) and the lookup reads the organisation's clock, one router statement.
 */

/** How stale `last_used_at` may be before a request writes it again: the lists show last use to the minute. */
export const LAST_USED_GRANULARITY_MILLIS = 60_000

const TokenRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  scope: Schema.Literals(ACCESS_SCOPES),
  token_hash: Schema.String,
  status: Schema.Literals(ACCESS_TOKEN_STATUSES),
  app_organisation_id: Schema.NullOr(Schema.String),
  app_creditor_id: Schema.NullOr(Schema.String),
  clock_offset_ms: DbInteger,
  last_used_at: Schema.Unknown,
  display_prefix: Schema.NullOr(Schema.String)
})
const AppStateRow = Schema.Struct({ payment_pages_approved: Schema.Boolean, status: Schema.String })
const decodeAppStates = Schema.decodeUnknownEffect(Schema.Array(AppStateRow))
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TokenRow))
const decodeStatuses = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ status: Schema.Literals(ACCESS_TOKEN_STATUSES) })))
const decodeOffsets = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ offset_ms: DbInteger })))

/** A request's token, found by its hash (on Citus a reference table's row, read on the node the process reaches). Exported so a test can read its plan. */
export const tokenByHashStatement = (sql: SqlClient.SqlClient, tokenHash: string) =>
  sql`SELECT id, organisation_id, scope, token_hash, status, app_organisation_id, app_creditor_id, clock_offset_ms, last_used_at, display_prefix
    FROM access_tokens WHERE token_hash = ${tokenHash}`

/** On Citus, the organisation's clock offset, read from the clock itself (a router statement). Exported so a test can read its plan. */
export const clockOffsetStatement = (sql: SqlClient.SqlClient, organisation: string) =>
  sql`SELECT offset_ms FROM organisation_clocks WHERE organisation_id = ${organisation}`

export const SqlAccessTokens: Layer.Layer<AccessTokens, never, SqlClient.SqlClient> = Layer.effect(
  AccessTokens,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const distributed = (yield* topologyOf)._tag === "Distributed"
    /** On Citus, the organisation's clock offset from the clock itself (elsewhere the token's copy is read). */
    const clockOf = (organisation: string) =>
      Effect.map(
        Effect.flatMap(clockOffsetStatement(sql, organisation), decodeOffsets),
        (rows) => rows[0]?.offset_ms ?? 0
      ).pipe(forOrganisation(organisation))
    const appStateOf = (tokenId: string) =>
      Effect.map(
        Effect.flatMap(
          sql`SELECT a.payment_pages_approved, a.status FROM oauth_grants g JOIN oauth_apps a ON a.id = g.app_id WHERE g.token_id = ${tokenId}`,
          decodeAppStates
        ),
        (rows) => rows[0]
      )
    // The guard repeats the staleness test so that concurrent requests (or processes) write once.
    // The record is for people's lists, not for the request: a write that fails (on Citus every
    // node's copy is written, so one worker down fails it) is logged and the request goes on.
    const markUsed = (id: string, lastUsed: unknown) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const last = instantOf(lastUsed)
        if (last !== undefined && now - last < LAST_USED_GRANULARITY_MILLIS) return Effect.void
        const at = new Date(now).toISOString()
        const stale = new Date(now - LAST_USED_GRANULARITY_MILLIS).toISOString()
        return sql`UPDATE access_tokens SET last_used_at = ${at} WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at <= ${stale})`.pipe(
          Effect.asVoid,
          Effect.catch((error) => Effect.logWarning("access tokens: the token's last use could not be recorded", error))
        )
      })
    // A database failure on the request path is a defect: the gateway answers it with a 500.
    return AccessTokens.of({
      findByHash: (tokenHash) =>
        // The organisation's clock comes with the token: the database keeps a copy on each (migration 0008).
        tokenByHashStatement(sql, tokenHash).pipe(
          Effect.flatMap(decodeRows),
          Effect.tap((rows) => rows[0] === undefined ? Effect.void : markUsed(rows[0].id, rows[0].last_used_at)),
          Effect.flatMap((rows) => {
            const row = rows[0]
            if (row === undefined) return Effect.succeed(undefined)
            const recordAt = (clockOffsetMillis: number) => ({
              id: row.id,
              organisation: row.organisation_id,
              scope: row.scope,
              tokenHash: row.token_hash,
              status: row.status,
              clockOffsetMillis,
              ...(row.display_prefix === null ? {} : { displayPrefix: row.display_prefix })
            })
            const record = distributed ? Effect.map(clockOf(row.organisation_id), recordAt) : Effect.succeed(recordAt(row.clock_offset_ms))
            if (row.app_organisation_id === null || row.app_creditor_id === null) return record
            const app = { organisation: row.app_organisation_id, creditor: row.app_creditor_id }
            // Only an app's token reads its app (approval, status; server migration 0010's grants): a join on
            // every request cost the organisations' own tokens 13 points of throughput on PGlite.
            return Effect.zipWith(record, appStateOf(row.id), (found, state) => ({
              ...found,
              app,
              ...(state?.payment_pages_approved === true ? { appPaymentPagesApproved: true } : {}),
              ...(state?.status === "disabled" ? { appDisabled: true } : {})
            }))
          }),
          Effect.orDie
        ),
      insert: (record) =>
        Effect.orDie(sql`INSERT INTO access_tokens (id, organisation_id, scope, token_hash, status, app_organisation_id, app_creditor_id, display_prefix)
          VALUES (${record.id}, ${record.organisation}, ${record.scope}, ${record.tokenHash}, ${record.status},
            ${record.app?.organisation ?? null}, ${record.app?.creditor ?? null}, ${record.displayPrefix ?? null})`),
      // The row is locked from the read to the write: two moves of one token never both start from one status.
      move: (id, event) =>
        sql.withTransaction(Effect.gen(function*() {
          const from = (yield* decodeStatuses(yield* sql`SELECT status FROM access_tokens WHERE id = ${id} FOR UPDATE`))[0]?.status
          if (from === undefined) return
          const to = stateAfter(accessTokenMachine, from, event, {}, timestampFromMillis(yield* Clock.currentTimeMillis))
          if (to !== undefined) yield* sql`UPDATE access_tokens SET status = ${to} WHERE id = ${id}`
        })).pipe(Effect.orDie),
      statusOf: (id) =>
        sql`SELECT status FROM access_tokens WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeStatuses),
          Effect.map((rows) => rows[0]?.status),
          Effect.orDie
        )
    })
  })
)
