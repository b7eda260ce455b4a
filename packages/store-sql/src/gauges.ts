import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { appliedUpTo, type MigrationSet } from "./citus.ts"
import { DbInteger } from "./db-integer.ts"
import { STORE_MIGRATIONS } from "./sql-storage.ts"
import { timedStatement } from "./statement-metrics.ts"

/**
 * What the server's `/metrics` and `/health/ready` read of the database (docs/operations.md): a
 * scrape's cost follows the work waiting, never the data kept. Each count reads an index range (or
 * the queue's own table) and stops at `bound` rows, so a backlog past it shows as `bound`.
 */

/** How many rows a gauge counts at most: past it, the backlog is large, and its exact size does not change what to do. */
export const GAUGE_COUNT_BOUND = 10_000

const KindCounts = Schema.Array(Schema.Struct({ kind: Schema.String, n: DbInteger }))
const Counts = Schema.Array(Schema.Struct({ n: DbInteger }))

/**
 * Rows of due work due by `realNow` (real time, `due_real_at`: each row's instant on its
 * organisation's clock less that clock's offset) and not yet done, by kind: the range of
 * `due_work_due_real` the poll's claim reads, up to `bound` rows.
 */
export const dueBacklogStatement = (sql: SqlClient.SqlClient, realNow: number, bound: number) =>
  sql`SELECT kind, count(*) AS n FROM (SELECT kind FROM due_work WHERE due_real_at <= ${realNow} ORDER BY due_real_at LIMIT ${bound}) due GROUP BY kind`

export const dueBacklog = (realNow: number, bound: number = GAUGE_COUNT_BOUND): Effect.Effect<ReadonlyMap<string, number>, unknown, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* Schema.decodeUnknownEffect(KindCounts)(yield* timedStatement("due_work.backlog", dueBacklogStatement(sql, realNow, bound)))
    return new Map(rows.map((row) => [row.kind, row.n]))
  })

/** Events waiting in the webhook outbox, up to `bound`: the outbox holds only what the pump has not yet taken. */
export const outboxDepth = (bound: number = GAUGE_COUNT_BOUND): Effect.Effect<number, unknown, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* Schema.decodeUnknownEffect(Counts)(yield* timedStatement("outbox.depth", sql`SELECT count(*) AS n FROM (SELECT 1 FROM outbox LIMIT ${bound}) waiting`))
    return rows[0]?.n ?? 0
  })

/** A migration set the database has not caught up with: the latest it applied and the latest this code knows. */
export interface MigrationsBehind {
  readonly table: string
  readonly applied: number
  readonly wanted: number
}

/** The sets (store-sql's and `more`) whose migrations the database has not all applied; empty when current. */
export const migrationsBehind = (more: ReadonlyArray<MigrationSet>): Effect.Effect<ReadonlyArray<MigrationsBehind>, unknown, SqlClient.SqlClient> =>
  Effect.map(
    Effect.forEach([STORE_MIGRATIONS, ...more], (set) => Effect.map(appliedUpTo(set.table), (applied) => ({ table: set.table, applied, wanted: set.latest }))),
    (sets) => sets.filter((set) => set.applied < set.wanted)
  )
