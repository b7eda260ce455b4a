import { Effect, Layer, Schema } from "effect"
import { RetentionStore, WEBHOOK_DELIVERY_STATUSES, WEBHOOKS, webhookDeliveries } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { DbInteger } from "./db-integer.ts"

/**
 * The engine's `RetentionStore` on SQL. Each table's rows past their cutoff are found through an
 * index scoped by organisation (`events_created_at` and `resources_created_at` on the stored
 * `created_at` text, `idempotency_keys_created_at`) and removed at most `limit` at a time, so one
 * call is a bounded unit of work. Events still in the outbox wait for the pump; pending webhook
 * deliveries wait for their last attempt.
 */

const CountRow = Schema.Struct({ n: DbInteger })
const decodeCount = Schema.decodeUnknownEffect(Schema.Array(CountRow))
/** Only settled deliveries are pruned: a pending one still has a due row that reads it. */
const SETTLED_DELIVERIES = WEBHOOK_DELIVERY_STATUSES.filter((status) => status !== "pending")

const iso = (millis: number): string => new Date(millis).toISOString()

export const makeRetentionSql = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
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

  const pruneResources = (organisation: string, type: string, before: string, limit: number, statuses?: ReadonlyArray<string>) =>
    count(sql`WITH gone AS (
        DELETE FROM resources WHERE organisation_id = ${organisation} AND resource_type = ${type} AND id IN (
          SELECT id FROM resources WHERE organisation_id = ${organisation} AND resource_type = ${type}
            AND (filters->>'created_at') COLLATE "C" < ${before}
            ${statuses === undefined ? sql`` : sql`AND filters->>'status' IN ${sql.in(statuses)}`}
          ORDER BY (filters->>'created_at') COLLATE "C" LIMIT ${limit})
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
        // The events' append-only trigger lets this transaction's deletes through (migration 0030).
        yield* sql`SELECT set_config('paykit.retention', 'prune', true)`
        const events = yield* pruneEvents(organisation, iso(cutoffs.eventsBefore), limit)
        yield* sql`SELECT set_config('paykit.retention', '', true)`
        const attempts = yield* pruneResources(organisation, WEBHOOKS, iso(cutoffs.eventsBefore), limit)
        const deliveries = yield* pruneResources(organisation, webhookDeliveries.name, iso(cutoffs.eventsBefore), limit, SETTLED_DELIVERIES)
        const keys = yield* pruneKeys(organisation, iso(cutoffs.idempotencyKeysBefore), limit)
        return Math.max(events, attempts, deliveries, keys)
      })).pipe(Effect.orDie)
  })
})

export const RetentionSql: Layer.Layer<RetentionStore, never, SqlClient.SqlClient> = Layer.effect(RetentionStore, makeRetentionSql)
