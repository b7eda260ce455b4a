import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { lowestStatusOf, type RequestLogPage, type RequestLogQuery, type RequestLogRecord, storedJsonOf } from "@paykit/http/stored-log"

/**
 * The `request_log` table's rows as records, read and written: what the SQL store
 * (`SqlRequestLog`) and the request log's own thread on PGlite (`request-log-thread/`) share. It
 * loads only the stored log's module of the http package, so the thread loads no more.
 */

const Row = Schema.Struct({
  organisation_id: Schema.String,
  request_id: Schema.String,
  created_at: Schema.String,
  method: Schema.String,
  path: Schema.String,
  query: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  status: Schema.Number,
  duration_ms: Schema.Number,
  idempotency_key: Schema.NullOr(Schema.String),
  token_id: Schema.String,
  token_prefix: Schema.NullOr(Schema.String),
  request_body: Schema.Unknown,
  response_body: Schema.Unknown,
  resource_ids: Schema.Array(Schema.String)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const recordOfRow = (row: typeof Row.Type): RequestLogRecord => ({
  organisation: row.organisation_id,
  requestId: row.request_id,
  createdAt: row.created_at,
  method: row.method,
  path: row.path,
  query: row.query,
  status: row.status,
  durationMs: row.duration_ms,
  idempotencyKey: row.idempotency_key,
  tokenId: row.token_id,
  tokenPrefix: row.token_prefix,
  requestBody: row.request_body,
  responseBody: row.response_body,
  resourceIds: row.resource_ids
})

export const COLUMNS = "organisation_id, request_id, created_at, method, path, query, status, duration_ms, idempotency_key, token_id, token_prefix, request_body, response_body, resource_ids"

/** A field of `COPY`'s text format: its backslashes, tabs and line ends escaped. */
const copyText = (value: string): string => /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c) : value
const COPY_ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" }
const COPY_NULL = "\\N"
const copyOptional = (value: string | null): string => value === null ? COPY_NULL : copyText(value)
const copyJson = (value: unknown): string => value === null || value === undefined ? COPY_NULL : copyText(storedJsonOf(value))
/** A `text[]` literal, each element quoted. */
const copyArray = (values: ReadonlyArray<string>): string => copyText(`{${values.map((v) => `"${v.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`)

/** The records as `COPY ... FROM` text, one line each, in `COLUMNS`' order. */
export const copyLines = (records: ReadonlyArray<RequestLogRecord>): string => {
  let out = ""
  for (const r of records) {
    out += `${copyText(r.organisation)}\t${copyText(r.requestId)}\t${copyText(r.createdAt)}\t${copyText(r.method)}\t${copyText(r.path)}\t${copyJson(r.query)}\t${r.status}\t${r.durationMs}\t${
      copyOptional(r.idempotencyKey)}\t${copyText(r.tokenId)}\t${copyOptional(r.tokenPrefix)}\t${copyJson(r.requestBody)}\t${copyJson(r.responseBody)}\t${copyArray(r.resourceIds)}\n`
  }
  return out
}

/** The organisation's pages and records, read newest first through `request_log_newest`. */
export const requestLogReads = (sql: SqlClient.SqlClient): {
  readonly list: (organisation: string, query: RequestLogQuery) => Effect.Effect<RequestLogPage>
  readonly find: (organisation: string, requestId: string) => Effect.Effect<RequestLogRecord | undefined>
} => {
  const columns = sql`organisation_id, request_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
    method, path, query, status, duration_ms, idempotency_key, token_id, token_prefix, request_body, response_body, to_jsonb(resource_ids) AS resource_ids`

  /** The organisation's rows a query reads: its filters, and the side of its cursor. */
  const conditions = (organisation: string, query: RequestLogQuery) => {
    const parts = [sql`organisation_id = ${organisation}`]
    if (query.statusClass !== undefined) {
      const lowest = lowestStatusOf(query.statusClass)
      parts.push(sql`status >= ${lowest}`, sql`status < ${lowest + 100}`)
    }
    if (query.pathPrefix !== undefined) parts.push(sql`starts_with(path, ${query.pathPrefix})`)
    if (query.resourceId !== undefined) parts.push(sql`resource_ids @> ARRAY[${query.resourceId}]::text[]`)
    const cursor = query.cursor
    if (cursor !== undefined) {
      parts.push(cursor._tag === "After"
        ? sql`(created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})`
        : sql`(created_at, request_id) > (${cursor.createdAt}::timestamptz, ${cursor.requestId})`)
    }
    return sql.and(parts)
  }

  return {
    list: (organisation, query) =>
      Effect.orDie(Effect.gen(function*() {
        const before = query.cursor?._tag === "Before"
        // A `before` page is read upwards from the cursor (the records nearest it), then turned newest first.
        const order = before ? sql`ORDER BY created_at, request_id` : sql`ORDER BY created_at DESC, request_id DESC`
        const rows = yield* decodeRows(yield* sql`SELECT ${columns} FROM request_log WHERE ${conditions(organisation, query)}
          ${order} LIMIT ${query.limit + 1}`)
        const page = rows.slice(0, query.limit).map(recordOfRow)
        return { records: before ? page.reverse() : page, more: !before && rows.length > query.limit }
      })),
    find: (organisation, requestId) =>
      Effect.orDie(Effect.map(
        Effect.flatMap(sql`SELECT ${columns} FROM request_log WHERE organisation_id = ${organisation} AND request_id = ${requestId}`, decodeRows),
        (rows) => rows[0] === undefined ? undefined : recordOfRow(rows[0])
      ))
  }
}
