import { Clock, Effect } from "effect"
import { dueDone, type DueWorkDeclarations, DueWorkSchedule } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { orStorageError } from "./storage-error.ts"
import type { StorageError } from "@paykit/core"

/**
 * Upkeep of the database as a kind of due work: `ANALYZE`, so the planner knows the tables' sizes
 * and value spreads. PGlite never analyses by itself (it has no autovacuum), and without
 * statistics it planned a first page as a sort of the whole table (117 ms at 100k rows);
 * PostgreSQL's autovacuum analyses too, and one more pass a day costs it little.
 *
 * Due rows belong to an organisation; upkeep belongs to none, so its rows are filed under
 * `MAINTENANCE_ORGANISATION`, an id no organisation can have (organisation ids are `OR...`). It
 * runs on real time (no sandbox clock has an offset for it), once a day at `MAINTENANCE_HOUR_UTC`,
 * keyed by date: two processes scheduling the same day make one row.
 */
export const MAINTENANCE_KIND = "storage_maintenance"
export const MAINTENANCE_ORGANISATION = "_storage"
/** A quiet hour for most of Europe, where Bacs and SEPA collections are. */
export const MAINTENANCE_HOUR_UTC = 3

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

/** The first maintenance instant strictly after `now` (epoch milliseconds). */
export const nextMaintenanceAt = (now: number): number => {
  const today = Math.floor(now / DAY_MS) * DAY_MS + MAINTENANCE_HOUR_UTC * HOUR_MS
  return today > now ? today : today + DAY_MS
}

/** Schedules the maintenance after `now`: one row per date, however many processes ask. */
export const scheduleMaintenance = (now: number): Effect.Effect<void, StorageError, DueWorkSchedule> =>
  Effect.gen(function*() {
    const at = nextMaintenanceAt(now)
    yield* (yield* DueWorkSchedule).schedule({
      organisation: MAINTENANCE_ORGANISATION,
      kind: MAINTENANCE_KIND,
      key: new Date(at).toISOString().slice(0, 10),
      dueAt: at
    })
  })

/**
 * Refreshes the planner's statistics of every table of the schema (the first one of the search
 * path), and of no other: a bare `ANALYZE` would take every table of the database, a host's and
 * another paykit's included.
 */
export const analyze: Effect.Effect<void, StorageError, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    orStorageError("analyze")(Effect.gen(function*() {
      const tables = yield* sql<{ readonly name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`
      for (const table of tables) yield* sql`ANALYZE ${sql(table.name)}`
    }))
)

/**
 * The maintenance kind for the due-work worker: analyses, then schedules the next one. It runs
 * outside a unit of work (`ANALYZE` needs none and takes seconds on a large database); running it
 * twice is harmless, as the worker's own units of work require.
 */
export const storageMaintenance: Effect.Effect<DueWorkDeclarations, never, SqlClient.SqlClient | DueWorkSchedule> = Effect.gen(
  function*() {
    const sql = yield* SqlClient.SqlClient
    const schedule = yield* DueWorkSchedule
    return {
      kinds: [{
        kind: MAINTENANCE_KIND,
        ownUnitsOfWork: true,
        run: (item) =>
          Effect.gen(function*() {
            yield* analyze
            // After the clock, not after the row's instant: a database that was down for a week
            // analyses once, not once per missed day.
            yield* scheduleMaintenance(Math.max(item.dueAt, yield* Clock.currentTimeMillis))
            return dueDone
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(DueWorkSchedule, schedule))
      }],
      pumps: []
    }
  }
)
