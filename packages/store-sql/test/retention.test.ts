import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { migrate } from "../src/migrations/index.ts"
import { makeRetentionSql } from "../src/retention.ts"
import { DATABASES_AND_CITUS as DATABASES } from "./support/databases.ts"

/** Rows written straight into the tables, each dated; the store is asked to prune what is older than a cutoff. */
const DAY = 86_400_000
const MINUTE = 60_000
const NOW = Date.parse("2026-11-24T06:00:00.000Z")
const iso = (millis: number) => new Date(millis).toISOString()
const A = "OR00RETENT10NA"
const B = "OR00RETENT10NB"

const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const event = (organisation: string, id: string, at: number) =>
    sql`INSERT INTO events (organisation_id, id, version, created_at, filters, data)
      VALUES (${organisation}, ${id}, 1, ${iso(at)}::timestamptz, ${JSON.stringify({ created_at: iso(at) })}::jsonb, ${JSON.stringify({ id })}::json)`
  const resource = (organisation: string, type: string, id: string, at: number, filters: Readonly<Record<string, string>> = {}) =>
    sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
      VALUES (${organisation}, ${type}, ${id}, 1, ${iso(at)}::timestamptz,
        ${JSON.stringify({ created_at: iso(at), ...filters })}::jsonb, ${JSON.stringify({ id })}::json)`
  // A history entry's id starts with its instant, as the engine's (`transitionIdOf`).
  const entry = (organisation: string, type: string, resource: string, at: number, step: number) =>
    sql`INSERT INTO transitions (organisation_id, id, version, created_at, filters, data)
      VALUES (${organisation}, ${`${iso(at)}/${resource}/${step}`}, 1, ${iso(at)}::timestamptz,
        ${JSON.stringify({ created_at: iso(at), resource_type: type, resource_id: resource })}::jsonb, ${JSON.stringify({ resource })}::json)`
  const key = (organisation: string, k: string, at: number) =>
    sql`INSERT INTO idempotency_keys (organisation_id, key, resource_id, created_at) VALUES (${organisation}, ${k}, 'PM_old', ${iso(at)}::timestamptz)`
  for (const organisation of [A, B]) {
    yield* event(organisation, "EV_old_1", NOW - 100 * DAY)
    yield* event(organisation, "EV_old_2", NOW - 91 * DAY)
    yield* event(organisation, "EV_old_waiting", NOW - 95 * DAY)
    yield* event(organisation, "EV_new", NOW - 89 * DAY)
    yield* resource(organisation, "webhooks", "WB_old", NOW - 92 * DAY, { delivery: "WD_old_delivered" })
    // An attempt of a delivery still pending a retry: its record stays while the delivery does.
    yield* resource(organisation, "webhooks", "WB_old_of_pending", NOW - 93 * DAY, { delivery: "WD_old_pending" })
    yield* resource(organisation, "webhooks", "WB_new", NOW - DAY, { delivery: "WD_old_pending" })
    yield* resource(organisation, "webhook_deliveries", "WD_old_delivered", NOW - 92 * DAY, { status: "delivered" })
    yield* resource(organisation, "webhook_deliveries", "WD_old_given_up", NOW - 93 * DAY, { status: "given_up" })
    yield* resource(organisation, "webhook_deliveries", "WD_old_pending", NOW - 92 * DAY, { status: "pending" })
    yield* resource(organisation, "payments", "PM_old", NOW - 400 * DAY)
    // The deliveries' history goes with them, the pending one's stays; a payment's history is kept.
    yield* entry(organisation, "webhook_deliveries", "WD_old_delivered", NOW - 92 * DAY, 10)
    yield* entry(organisation, "webhook_deliveries", "WD_old_delivered", NOW - 92 * DAY + MINUTE, 20)
    yield* entry(organisation, "webhook_deliveries", "WD_old_given_up", NOW - 93 * DAY, 10)
    yield* entry(organisation, "webhook_deliveries", "WD_old_pending", NOW - 94 * DAY, 10)
    yield* entry(organisation, "payments", "PM_old", NOW - 400 * DAY, 10)
    // A mandate PDF whose URL expired a minute ago, and one whose URL is still served.
    yield* resource(organisation, "mandate_pdfs", "MPD_expired", NOW - 11 * MINUTE)
    yield* resource(organisation, "mandate_pdfs", "MPD_live", NOW - 5 * MINUTE)
    yield* key(organisation, "key-old", NOW - 31 * DAY)
    yield* key(organisation, "key-new", NOW - 29 * DAY)
  }
  // The pump has taken every event but one: that one is still waiting to be delivered.
  yield* sql`DELETE FROM outbox WHERE event_id <> 'EV_old_waiting'`
})

const remaining = (organisation: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* sql<{ id: string }>`SELECT id FROM events WHERE organisation_id = ${organisation} ORDER BY id`
    const resources = yield* sql<{ id: string }>`SELECT id FROM resources WHERE organisation_id = ${organisation} ORDER BY id`
    const keys = yield* sql<{ key: string }>`SELECT key FROM idempotency_keys WHERE organisation_id = ${organisation} ORDER BY key`
    const history = yield* sql<{ id: string }>`SELECT id FROM transitions WHERE organisation_id = ${organisation} ORDER BY id`
    return {
      events: events.map((r) => r.id),
      resources: resources.map((r) => r.id),
      keys: keys.map((r) => r.key),
      history: history.map((r) => r.id.split("/")[1])
    }
  })

const cutoffs = { eventsBefore: NOW - 90 * DAY, idempotencyKeysBefore: NOW - 30 * DAY, mandatePdfsBefore: NOW - 10 * MINUTE }

describe.each(DATABASES)("retention on $name", (database) => {
  it("removes only one organisation's rows past their period: no waiting event, no pending delivery nor its attempts, no live mandate PDF, nothing else", { timeout: 60_000 }, async () => {
    const [removed, again, a, b] = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* migrate()
        yield* seed
        const store = yield* makeRetentionSql
        const first = yield* store.prune(A, cutoffs, 1_000)
        return [first, yield* store.prune(A, cutoffs, 1_000), yield* remaining(A), yield* remaining(B)] as const
      }),
      database.isolated()
    ))
    expect(removed).toBe(3)
    expect(again).toBe(0)
    expect(a).toEqual({
      events: ["EV_new", "EV_old_waiting"],
      resources: ["MPD_live", "PM_old", "WB_new", "WB_old_of_pending", "WD_old_pending"],
      keys: ["key-new"],
      history: ["PM_old", "WD_old_pending"]
    })
    expect(b.events).toHaveLength(4)
    expect(b.history).toHaveLength(5)
    expect(b.resources).toHaveLength(9)
    expect(b.keys).toHaveLength(2)
  })

  it("removes at most `limit` rows of a table a call, oldest first; outside it, events and history stay append-only", { timeout: 60_000 }, async () => {
    const [first, afterFirst, refusal, historyRefusal] = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate()
        yield* seed
        const store = yield* makeRetentionSql
        const n = yield* store.prune(A, cutoffs, 1)
        const left = yield* remaining(A)
        const deleted = yield* Effect.result(sql`DELETE FROM events WHERE organisation_id = ${A} AND id = 'EV_new'`)
        const historyDeleted = yield* Effect.result(sql`DELETE FROM transitions WHERE organisation_id = ${A}`)
        return [n, left, deleted._tag, historyDeleted._tag] as const
      }),
      database.isolated()
    ))
    expect(first).toBe(1)
    expect(afterFirst.events).toEqual(["EV_new", "EV_old_2", "EV_old_waiting"])
    expect(afterFirst.resources).toEqual(["MPD_live", "PM_old", "WB_new", "WB_old_of_pending", "WD_old_delivered", "WD_old_pending"])
    expect(afterFirst.history).toEqual(["PM_old", "WD_old_pending", "WD_old_delivered", "WD_old_delivered"])
    expect(refusal).toBe("Failure")
    expect(historyRefusal).toBe("Failure")
  })
})

describe.each(DATABASES)("the stored request log's retention on $name", (database) => {
  it("removes an organisation's request rows older than the events' cutoff, oldest first and at most `limit` a call, and no other organisation's", { timeout: 60_000 }, async () => {
    const request = (organisation: string, id: string, at: number) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO request_log (organisation_id, request_id, created_at, method, path, status, duration_ms, token_id)
        VALUES (${organisation}, ${id}, ${iso(at)}::timestamptz, 'GET', '/customers', 200, 1.5, 'AT_1')`)
    const left = (organisation: string) =>
      Effect.map(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ request_id: string }>`SELECT request_id FROM request_log WHERE organisation_id = ${organisation} ORDER BY request_id`),
        (rows) => rows.map((r) => r.request_id))
    const [first, afterFirst, second, a, b] = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* migrate()
        for (const organisation of [A, B]) {
          yield* request(organisation, "r1_oldest", NOW - 120 * DAY)
          yield* request(organisation, "r2_old", NOW - 91 * DAY)
          yield* request(organisation, "r3_new", NOW - 89 * DAY)
        }
        const store = yield* makeRetentionSql
        const n = yield* store.prune(A, cutoffs, 1)
        const kept = yield* left(A)
        return [n, kept, yield* store.prune(A, cutoffs, 1_000), yield* left(A), yield* left(B)] as const
      }),
      database.isolated()
    ))
    expect(first).toBe(1)
    expect(afterFirst).toEqual(["r2_old", "r3_new"])
    expect(second).toBe(1)
    expect(a).toEqual(["r3_new"])
    expect(b).toEqual(["r1_oldest", "r2_old", "r3_new"])
  })
})
