import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { DueWorkStore } from "@paykit/engine"
import { claimDueStatement } from "../src/due-work.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * A poll's claim reads what is due, not what is stored: each organisation's rows are bounded by
 * its own clock. One sandbox organisation a year ahead must not make every poll read every other
 * organisation's rows due within that year (a bound of real time plus the largest offset did).
 */

const DAY = 86_400_000
const AHEAD = "OR00C1A1MAHEAD"
const LIVE = "OR000C1A1M11VE"
const STORED = 20_000

interface PlanNode {
  readonly "Relation Name"?: string
  readonly "Actual Rows"?: number
  readonly "Actual Loops"?: number
  readonly "Rows Removed by Filter"?: number
  readonly "Rows Removed by Index Recheck"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}

/** The rows of `relation` the plan's scans returned or read and dropped, every loop counted. */
const rowsRead = (node: PlanNode, relation: string): number =>
  (node["Relation Name"] === relation
    ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) * (node["Actual Loops"] ?? 1)
    : 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0)

/** The claim's plan, run: the rows of `due_work` and of `organisation_clocks` it read. */
const claimPlanReads = (sql: SqlClient.SqlClient, now: number) =>
  Effect.gen(function*() {
    const statement = claimDueStatement(sql, { owner: "plan", realNow: now, until: now + 60_000 }, 10)
    const [text, params] = statement.compile()
    const [row] = yield* sql.unsafe<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)
    const raw = row?.["QUERY PLAN"]
    const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as ReadonlyArray<{ readonly Plan: PlanNode }>
    const sum = (relation: string) => plan.reduce((total, entry) => total + rowsRead(entry.Plan, relation), 0)
    return { dueWork: sum("due_work"), clocks: sum("organisation_clocks") }
  })

describe.each(DATABASES)("the claim's bound on $name", (database) => {
  it("reads neither the clocks nor the rows of organisations with nothing due, however many run ahead", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const store = yield* DueWorkStore
        const now = Date.now()
        // 2,000 sandbox organisations, each a week ahead, each with its next daily run a day off on its clock.
        yield* sql`INSERT INTO organisation_clocks (organisation_id, offset_ms)
          SELECT 'OR' || lpad(g::text, 12, '0'), ${7 * DAY}::bigint FROM generate_series(1, 2000) g`
        yield* sql`INSERT INTO due_work (organisation_id, kind, key, due_at)
          SELECT 'OR' || lpad(g::text, 12, '0'), 'daily_run', 'next', ${now + 8 * DAY}::bigint FROM generate_series(1, 2000) g`
        // One of them (the seventh) has a row due on its clock (six days ahead of real time, a day behind its own).
        yield* store.schedule({ organisation: "OR000000000007", kind: "probe", key: "due", dueAt: now + 6 * DAY })
        yield* sql`ANALYZE due_work`
        yield* sql`ANALYZE organisation_clocks`
        const reads = yield* claimPlanReads(sql, now)
        const claimed = yield* sql<{ key: string }>`SELECT key FROM due_work WHERE lease_owner = 'plan'`
        expect(claimed.map((r) => r.key)).toEqual(["due"])
        expect(reads.clocks).toBe(0)
        expect(reads.dueWork).toBeLessThan(10)
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))

  it("claims a row its organisation's clock, moved after it was scheduled, made due", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const store = yield* DueWorkStore
        const now = Date.now()
        const lease = (owner: string) => ({ owner, realNow: now, until: now + 60_000 })
        // Scheduled while the organisation runs on real time (no clock row yet), then the clock moves twice.
        yield* store.schedule({ organisation: "OR0000000M0VED", kind: "probe", key: "in-3-days", dueAt: now + 3 * DAY })
        yield* store.schedule({ organisation: "OR0000000M0VED", kind: "probe", key: "in-10-days", dueAt: now + 10 * DAY })
        expect(yield* store.claimDue(lease("before"), 10)).toEqual([])
        yield* store.raiseOffset("OR0000000M0VED", 2 * DAY)
        expect(yield* store.claimDue(lease("first move"), 10)).toEqual([])
        yield* store.raiseOffset("OR0000000M0VED", 4 * DAY)
        const claimed = yield* store.claimDue(lease("second move"), 10)
        expect(claimed.map((item) => [item.key, item.offsetMillis])).toEqual([["in-3-days", 4 * DAY]])
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))

  it("reads the rows due on each organisation's own clock, not those of others due within the largest offset", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const store = yield* DueWorkStore
        const now = Date.now()
        // A hundred live organisations' rows, due over the coming months: none due now.
        yield* sql`INSERT INTO due_work (organisation_id, kind, key, due_at)
          SELECT ${LIVE} || (g % 100), 'probe', 'k' || g, ${now + DAY}::bigint + g::bigint * 3600000 FROM generate_series(1, ${STORED}::int) g`
        // A sandbox organisation a year ahead: three rows due on its clock, two not yet.
        yield* store.raiseOffset(AHEAD, 365 * DAY)
        for (const [key, at] of [["a", 10], ["b", 20], ["c", 30], ["later1", 400], ["later2", 500]] as const) {
          yield* store.schedule({ organisation: AHEAD, kind: "probe", key, dueAt: now + at * DAY })
        }
        yield* sql`ANALYZE due_work`
        const read = (yield* claimPlanReads(sql, now)).dueWork
        const claimed = yield* sql<{ key: string }>`SELECT key FROM due_work WHERE lease_owner = 'plan' ORDER BY key`
        expect(claimed.map((r) => r.key)).toEqual(["a", "b", "c"])
        // The three claimed, each read again by the update; nothing near the 2,000 stored.
        expect(read).toBeLessThan(50)
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
