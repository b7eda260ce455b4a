import { Effect, Layer, Schema } from "effect"
import { mandatePdfs, RetentionStore, WEBHOOK_DELIVERY_STATUSES, WEBHOOKS, webhookDeliveries } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { topologyOf, withAppendOnlyDeletes } from "./citus.ts"
import { DbInteger } from "./db-integer.ts"
import { pruneRequestLog } from "./request-log.ts"
import { orStorageError } from "./storage-error.ts"

/**
 * The engine's `RetentionStore` on SQL. Each table's rows past their cutoff are found through an
 * index scoped by organisation (`events_created_at` and `resources_created_at` on the stored
 * `created_at` text, `idempotency_keys_created_at`) and removed at most `limit` at a time, so one
 * call is a bounded unit of work. Events still in the outbox wait for the pump; pending webhook
 * deliveries, and the attempts recorded for them, wait for their last attempt; a settled
 * delivery's history (its machine's entries) goes with it. Mandate PDFs go once their URL has
 * expired. The stored request log (`request_log`) is kept as the events are.
 */

const CountRow = Schema.Struct({ n: DbInteger })
const decodeCount = Schema.decodeUnknownEffect(Schema.Array(CountRow))
/** A delivery waiting for its next attempt: its due row still reads it, and a retry still reads its attempts. */
const PENDING_DELIVERY: (typeof WEBHOOK_DELIVERY_STATUSES)[number] = "pending"
/** Only settled deliveries are pruned. */
const SETTLED_DELIVERIES = WEBHOOK_DELIVERY_STATUSES.filter((status) => status !== PENDING_DELIVERY)

const iso = (millis: number): string => new Date(millis).toISOString()

export const makeRetentionSql = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const topology = yield* topologyOf
  const count = <E, R>(statement: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    Effect.map(Effect.flatMap(statement, decodeCount), (rows) => rows[0]?.n ?? 0)

  const pruneEvents = (organisation: string, before: string, limit: number) =>
    count(sql`WITH gone AS (
        DELETE FROM events e WHERE e.organisation_id = ${organisation} AND e.id IN (
          SELECT id FROM events WHERE organisation_id = ${organisation} AND (filters->>'created_at') COLLATE "C" < ${before}
            AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.organisation_id = events.organisation_id AND o.event_id = events.id)
          ORDER BY (filters->>'created_at') COLLATE "C" LIMIT ${limit})
        RETURNING 1)
      SELECT count(*) AS n FROM gone`)

  /** `kept`: a further condition on the candidate row `r` (what must stay whatever its age). */
  const pruneResources = (organisation: string, type: string, before: string, limit: number, kept: Fragment = sql``) =>
    count(sql`WITH gone AS (
        DELETE FROM resources WHERE organisation_id = ${organisation} AND resource_type = ${type} AND id IN (
          SELECT r.id FROM resources r WHERE r.organisation_id = ${organisation} AND r.resource_type = ${type}
            AND (r.filters->>'created_at') COLLATE "C" < ${before} ${kept}
          ORDER BY (r.filters->>'created_at') COLLATE "C" LIMIT ${limit})
        RETURNING 1)
      SELECT count(*) AS n FROM gone`)
  /** An attempt stays while its delivery is pending (one primary-key probe per candidate). */
  const attemptKept = (organisation: string) =>
    sql`AND NOT EXISTS (SELECT 1 FROM resources d WHERE d.organisation_id = ${organisation}
      AND d.resource_type = ${webhookDeliveries.name} AND d.id = r.filters->>'delivery' AND d.filters->>'status' = ${PENDING_DELIVERY})`

  /**
   * The history of settled deliveries past their period: found through the history's
   * `resource_type` index in id order (a history id starts with its instant, so the oldest come
   * first); an entry stays while its delivery is pending.
   */
  const pruneDeliveryHistory = (organisation: string, before: string, limit: number) =>
    count(sql`WITH gone AS (
        DELETE FROM transitions WHERE organisation_id = ${organisation} AND id IN (
          SELECT t.id FROM transitions t WHERE t.organisation_id = ${organisation} AND t.filters ? 'resource_type'
            AND ((t.filters->>'resource_type') COLLATE "C") = ${webhookDeliveries.name}
            AND (t.filters->>'created_at') COLLATE "C" < ${before}
            AND NOT EXISTS (SELECT 1 FROM resources d WHERE d.organisation_id = ${organisation}
              AND d.resource_type = ${webhookDeliveries.name} AND d.id = t.filters->>'resource_id' AND d.filters->>'status' = ${PENDING_DELIVERY})
          ORDER BY t.id LIMIT ${limit})
        RETURNING 1)
      SELECT count(*) AS n FROM gone`)

  const pruneKeys = (organisation: string, before: string, limit: number) =>
    count(sql`WITH gone AS (
        DELETE FROM idempotency_keys WHERE organisation_id = ${organisation} AND key IN (
          SELECT key FROM idempotency_keys WHERE organisation_id = ${organisation} AND created_at <= ${before}::timestamptz
          ORDER BY created_at LIMIT ${limit})
        RETURNING 1)
      SELECT count(*) AS n FROM gone`)

  return RetentionStore.of({
    prune: (organisation, cutoffs, limit) =>
      sql.withTransaction(Effect.gen(function*() {
        // The events' and the history's append-only triggers let these deletes through (migrations 0030, 0064).
        const [events, history] = yield* withAppendOnlyDeletes(sql, topology, Effect.all([
          pruneEvents(organisation, iso(cutoffs.eventsBefore), limit),
          pruneDeliveryHistory(organisation, iso(cutoffs.eventsBefore), limit)
        ]))
        const attempts = yield* pruneResources(organisation, WEBHOOKS, iso(cutoffs.eventsBefore), limit, attemptKept(organisation))
        const deliveries = yield* pruneResources(organisation, webhookDeliveries.name, iso(cutoffs.eventsBefore), limit,
          sql`AND r.filters->>'status' IN ${sql.in(SETTLED_DELIVERIES)}`)
        const keys = yield* pruneKeys(organisation, iso(cutoffs.idempotencyKeysBefore), limit)
        const pdfs = yield* pruneResources(organisation, mandatePdfs.name, iso(cutoffs.mandatePdfsBefore), limit)
        const requests = yield* pruneRequestLog(sql, organisation, iso(cutoffs.eventsBefore), limit)
        return Math.max(events, history, attempts, deliveries, keys, pdfs, requests)
      })).pipe(orStorageError("prune"))
  })
})

export const RetentionSql: Layer.Layer<RetentionStore, never, SqlClient.SqlClient> = Layer.effect(RetentionStore, makeRetentionSql)
