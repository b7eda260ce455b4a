import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Planner statistics that keep up with the tables. The planner sizes a table from what the last
 * `ANALYZE` saw; a table analysed small and grown since is planned as if it were still small:
 * sequential scans, and nested loops over them. A new database is analysed empty after its
 * migrations; PGlite never analyses by itself, and PostgreSQL's autovacuum looks once a minute. So
 * a day charged right after its subscriptions were made ran on such plans: the webhook pump's read
 * of the outbox scanned every stored event once per queued row (50 ms a batch at 20,000 events),
 * a batch's read of its subscriptions scanned them all, and the day spent twice the database time
 * it needed (2.6 s against 1.3 s for 2,000 charges on PostgreSQL, 2026-11-28).
 *
 * A table counts as grown when its file holds at least twice the pages its statistics saw, and
 * `STATISTICS_GROWTH_PAGES` more: a table growing to n pages is analysed about log2(n) times, and
 * `ANALYZE` reads a bounded sample whatever the size. The size is the file's (one `lseek` a table),
 * not the statistics collector's counts, which PGlite's single session does not keep.
 */
export const STATISTICS_GROWTH_PAGES = 16

/** How often a process looks at most (real time): the look is one catalog query. */
export const STATISTICS_LOOK_MILLIS = 10_000

const decodeNames = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ name: Schema.String })))

/**
 * Analyses the tables of the schema (the first of the search path, as `analyze` takes) that grew
 * past their statistics; answers their names. `SKIP_LOCKED`: a table another process (or
 * autovacuum) is analysing now is left to it.
 */
export const analyzeGrown = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const grown = yield* decodeNames(yield* sql`SELECT c.relname AS name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r'
      AND pg_relation_size(c.oid) / current_setting('block_size')::int >= GREATEST(2 * c.relpages, c.relpages + ${STATISTICS_GROWTH_PAGES})
    ORDER BY c.relname`)
  for (const table of grown) yield* sql`ANALYZE (SKIP_LOCKED) ${sql(table.name)}`
  return grown.map((table) => table.name)
})

/**
 * `analyzeGrown` at most once per `STATISTICS_LOOK_MILLIS` of the real clock the caller passes,
 * for a process's due-work claims: every idle poll passes by, and so does a day's first claim. A
 * failed look is logged and costs the claim nothing; the next look is a period later.
 */
export const makeStatisticsKeeper = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  let lastLook = Number.NEGATIVE_INFINITY
  return (realNow: number): Effect.Effect<void> => {
    if (realNow - lastLook < STATISTICS_LOOK_MILLIS) return Effect.void
    lastLook = realNow
    return analyzeGrown.pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.catchCause((cause) => Effect.logWarning("storage: refreshing grown tables' statistics failed", cause)),
      Effect.asVoid
    )
  }
})
