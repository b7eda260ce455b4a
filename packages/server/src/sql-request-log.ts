import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type RequestLogRecord, RequestLogStore } from "@paykit/http"
import { forOrganisation } from "@paykit/engine"
import { topologyOf } from "@paykit/store-sql"
import { requestLogReads } from "./request-log-rows.ts"

/**
 * The http package's `RequestLogStore` on store-sql's `request_log` table (migration 0070): one
 * row per request, keyed by organisation (on Citus, distributed with every other table). A batch
 * is one statement whatever its size: the records travel as one JSON parameter, so the statement's
 * text (and on PGlite its prepared statement) is the same for every batch, read as `json` (never
 * decomposed: the bodies are stored as their text, migration 0071). A batch is written up to 200 ms
 * after its requests, so a record of an organisation removed meanwhile is dropped, not left behind
 * with nothing to remove it. Pages are read newest
 * first through `request_log_newest`, a cursor being a row's time and request id.
 *
 * On PGlite the server does not use it: the log is in a database of its own, in a thread of its
 * own (`request-log-thread/`), since PGlite runs in the thread that calls it.
 */

const rowOfRecord = (record: RequestLogRecord) => ({
  organisation_id: record.organisation,
  request_id: record.requestId,
  created_at: record.createdAt,
  method: record.method,
  path: record.path,
  query: record.query,
  status: record.status,
  duration_ms: record.durationMs,
  idempotency_key: record.idempotencyKey,
  token_id: record.tokenId,
  token_prefix: record.tokenPrefix,
  request_body: record.requestBody,
  response_body: record.responseBody,
  resource_ids: record.resourceIds
})

/** The batch as one JSON parameter (its strings made storable by `redactBody`). */
const batchJson = (records: ReadonlyArray<RequestLogRecord>): string => JSON.stringify(records.map(rowOfRecord))

/** A JSON value as a parameter (SQL NULL for none). */
const jsonParam = (value: unknown): string | null => value === null || value === undefined ? null : JSON.stringify(value)

/**
 * A batch on Citus: the organisations still there (a reference table, read on the node the
 * process reaches), then each one's rows as one `INSERT … VALUES` on its shard. The single-node statement's `INSERT … SELECT` from the JSON parameter has no distributed
 * table to push down to: Citus runs its `SELECT` on the coordinator and copies the rows to the
 * shards through intermediate results, which cost the nodes 3.8 ms of CPU for a batch of two
 * against 0.8 ms this way (pgbench on this machine, docs/scaling.md). The statement's text grows
 * with the batch; a batch is at most one flush interval's requests. Exported so a test can read
 * its plan.
 */
export const routedInsertStatement = (sql: SqlClient.SqlClient, records: ReadonlyArray<RequestLogRecord>) =>
  sql`INSERT INTO request_log (organisation_id, request_id, created_at, method, path, query, status, duration_ms, idempotency_key,
      token_id, token_prefix, request_body, response_body, resource_ids)
    VALUES ${sql.csv(records.map((r) => sql`(${r.organisation}, ${r.requestId}, ${r.createdAt}::timestamptz, ${r.method}, ${r.path},
      ${jsonParam(r.query)}::json, ${r.status}::smallint, ${r.durationMs}::float8, ${r.idempotencyKey}, ${r.tokenId}, ${r.tokenPrefix},
      ${jsonParam(r.requestBody)}::json, ${jsonParam(r.responseBody)}::json, ${[...r.resourceIds]}::text[])`))}
    ON CONFLICT DO NOTHING`

const appendRouted = (sql: SqlClient.SqlClient, records: ReadonlyArray<RequestLogRecord>) =>
  Effect.gen(function*() {
    const organisations = [...new Set(records.map((record) => record.organisation))]
    const present = new Set((yield* decodeIds(yield* sql`SELECT id FROM organisations WHERE id = ANY(${organisations}::text[])`)).map((row) => row.id))
    // One statement an organisation, sent to its node (the client routes by `WorkingOrganisation`):
    // a batch of one organisation's rows through the coordinator cost it 5.8 ms (docs/scaling.md).
    yield* Effect.forEach(organisations.filter((organisation) => present.has(organisation)), (organisation) =>
      forOrganisation(organisation)(routedInsertStatement(sql, records.filter((record) => record.organisation === organisation))), { discard: true })
  })

const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

/** Which of `organisations` the database holds (the request log's thread stores only theirs). */
export const presentOrganisations = (sql: SqlClient.SqlClient) => (organisations: ReadonlyArray<string>): Effect.Effect<ReadonlySet<string>> =>
  Effect.orDie(Effect.map(
    Effect.flatMap(sql`SELECT id FROM organisations WHERE id IN ${sql.in(organisations)}`, decodeIds),
    (rows) => new Set(rows.map((row) => row.id))
  ))

export const SqlRequestLog: Layer.Layer<RequestLogStore, never, SqlClient.SqlClient> = Layer.effect(
  RequestLogStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const distributed = (yield* topologyOf)._tag === "Distributed"
    const reads = requestLogReads(sql)
    const insert = (records: ReadonlyArray<RequestLogRecord>) =>
      Effect.orDie(Effect.asVoid(sql`INSERT INTO request_log (organisation_id, request_id, created_at, method, path, query,
            status, duration_ms, idempotency_key, token_id, token_prefix, request_body, response_body, resource_ids)
          SELECT r.organisation_id, r.request_id, r.created_at, r.method, r.path, r.query, r.status, r.duration_ms, r.idempotency_key,
            r.token_id, r.token_prefix, r.request_body, r.response_body, ARRAY(SELECT json_array_elements_text(r.resource_ids))
          FROM json_to_recordset(${batchJson(records)}::json) AS r(organisation_id text, request_id text, created_at timestamptz, method text,
            path text, query json, status smallint, duration_ms double precision, idempotency_key text, token_id text, token_prefix text,
            request_body json, response_body json, resource_ids json)
          WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = r.organisation_id)
          ON CONFLICT DO NOTHING`))

    return RequestLogStore.of({
      append: (records) =>
        records.length === 0 ? Effect.void
          : distributed ? Effect.orDie(appendRouted(sql, records))
          : insert(records),
      ...reads
    })
  })
)
