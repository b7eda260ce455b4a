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
const AHEAD = "OR_claim_ahead"
const LIVE = "OR_claim_live"
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

describe.each(DATABASES)("the claim's bound on $name", (database) => {
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
        const statement = claimDueStatement(sql, { owner: "plan", realNow: now, until: now + 60_000 }, 10)
        const [text, params] = statement.compile()
        const [row] = yield* sql.unsafe<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)
        const raw = row?.["QUERY PLAN"]
        const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as ReadonlyArray<{ readonly Plan: PlanNode }>
        const read = plan.reduce((sum, entry) => sum + rowsRead(entry.Plan, "due_work"), 0)
        const claimed = yield* sql<{ key: string }>`SELECT key FROM due_work WHERE lease_owner = 'plan' ORDER BY key`
        expect(claimed.map((r) => r.key)).toEqual(["a", "b", "c"])
        // The three claimed, each read again by the update; nothing near the 2,000 stored.
        expect(read).toBeLessThan(50)
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
