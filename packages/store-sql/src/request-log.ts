import { Effect, Schema } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { DbInteger } from "./db-integer.ts"
import requestLog from "./migrations/0070_request_log.ts"
import requestLogJson from "./migrations/0071_request_log_json.ts"

/**
 * What a database holding only the stored request log needs of store-sql (the server's request
 * log thread on PGlite, `@paykit/store-sql/request-log`): its migrations, the PGlite client, and
 * retention's statement. A module of its own so a thread that loads it loads none of the engine.
 */

export * as PgliteClient from "./pglite-client.ts"

/**
 * The `request_log` table's migrations, defined here once and spread into store-sql's own set (a
 * test checks that no migration there names `request_log` outside this one).
 */
export const REQUEST_LOG_MIGRATIONS: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>> = {
  "0070_request_log": requestLog,
  "0071_request_log_json": requestLogJson
}

/** Where a database holding only the request log records the migrations it ran. */
export const REQUEST_LOG_MIGRATIONS_TABLE = "paykit_request_log_migrations"

/**
 * Brings a database holding only the request log up to date, recording what ran as store-sql's
 * migrator does, so a later migration of the table reaches a database made by an earlier version.
 */
export const migrateRequestLog = Migrator.make({})({ loader: Migrator.fromRecord(REQUEST_LOG_MIGRATIONS), table: REQUEST_LOG_MIGRATIONS_TABLE })

const decodeCount = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ n: DbInteger })))

/**
 * Removes at most `limit` of the organisation's rows older than `before` (ISO 8601), the oldest
 * first through `request_log_newest` read backwards; answers how many went.
 */
export const pruneRequestLog = (sql: SqlClient.SqlClient, organisation: string, before: string, limit: number) =>
  Effect.map(
    Effect.flatMap(
      sql`WITH gone AS (
        DELETE FROM request_log WHERE organisation_id = ${organisation} AND request_id IN (
          SELECT request_id FROM request_log WHERE organisation_id = ${organisation} AND created_at < ${before}::timestamptz
          ORDER BY created_at, request_id LIMIT ${limit})
        RETURNING 1)
      SELECT count(*) AS n FROM gone`,
      decodeCount
    ),
    (rows) => rows[0]?.n ?? 0
  )
