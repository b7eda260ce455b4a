import { Context, Effect } from "effect"
import type { Versioned } from "@paykit/engine"
import type { SqlClient } from "effect/sql"

/**
 * What a unit of work opened by the SQL transactor keeps while it runs (issue 35). A daily run's
 * batch charges a hundred subscriptions in one unit, and each charge read the same mandate four
 * times and its creditor three, and appended its history rows and events a statement each:
 *
 * - `rows`: every row the unit read or wrote by id, answered again without a statement. The unit's
 *   own writes keep it current; a row another transaction changes meanwhile is caught by the
 *   version test of the update that follows, as a read of it would have been (a lost race drops
 *   the row from here, so a retry reads it again).
 * - `appended`: rows of the append-only tables (events, history), written in one multi-row
 *   statement per table when the unit ends, or before anything in the unit reads their table.
 *   Nothing changes those rows once written, so only the unit's own reads need them earlier.
 * - `written` and `updated`: a row the unit wrote already is its own until it ends (PostgreSQL
 *   holds the row's lock for it; PGlite's one connection is the unit's), so its version is known
 *   and no one else can change it: a further update of it is kept in `updated` and written with
 *   the others in one statement when the unit ends, or before a scan of the table (a charge
 *   updated its schedule record twice).
 */
export interface UnitOfWorkState {
  readonly rows: Map<string, Versioned<unknown>>
  readonly appended: Map<string, Array<Record<string, unknown>>>
  readonly written: Set<string>
  readonly updated: Map<string, DeferredUpdate>
}

/** A row's last update in the unit, not yet written: from the version stored to the unit's. */
export interface DeferredUpdate {
  readonly table: string
  readonly organisation: string
  readonly resourceType: string
  readonly id: string
  readonly from: number
  readonly to: number
  readonly filters: string
  readonly data: string
}

/** The unit of work open in the fiber, if the SQL transactor opened one. */
export const CurrentUnitOfWork = Context.Reference<UnitOfWorkState | undefined>("@paykit/store-sql/CurrentUnitOfWork", {
  defaultValue: () => undefined
})

export const newUnitOfWork = (): UnitOfWorkState => ({ rows: new Map(), appended: new Map(), written: new Set(), updated: new Map() })

/** Rows per multi-row statement: 1,000 rows of 7 parameters stay far under PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 1_000

/** Writes the rows `state` holds for `table` (every table when none is named), in the order appended. */
export const flushAppended = (sql: SqlClient.SqlClient, state: UnitOfWorkState, table?: string): Effect.Effect<void> =>
  Effect.suspend(() => {
    const tables = table === undefined ? [...state.appended.keys()] : state.appended.has(table) ? [table] : []
    return Effect.forEach(tables, (name) => {
      const rows = state.appended.get(name) ?? []
      state.appended.delete(name)
      const statements = Array.from({ length: Math.ceil(rows.length / ROWS_PER_STATEMENT) }, (_, i) => rows.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT))
      return Effect.forEach(statements, ([first, ...rest]) =>
        first === undefined ? Effect.void : Effect.orDie(sql`INSERT INTO ${sql(name)} ${sql.insert([first, ...rest])}`), { discard: true })
    }, { discard: true })
  })

/** Columns of a deferred update in its VALUES list: 7, so 1,000 a statement. */
const updateTuple = (first: number) =>
  `($${first}, $${first + 1}, $${first + 2}, $${first + 3}::int, $${first + 4}::int, $${first + 5}::jsonb, $${first + 6}::json)`

/** Writes the updates `state` holds for `table` (the typed `resources` table is the only one updated), one statement a thousand. */
export const flushUpdated = (sql: SqlClient.SqlClient, state: UnitOfWorkState, table: string): Effect.Effect<void> =>
  Effect.suspend(() => {
    const pending = [...state.updated.values()].filter((update) => update.table === table)
    for (const update of pending) state.updated.delete(`${table}\u0000${update.resourceType}\u0000${update.organisation}\u0000${update.id}`)
    const statements = Array.from({ length: Math.ceil(pending.length / ROWS_PER_STATEMENT) }, (_, i) => pending.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT))
    return Effect.forEach(statements, (updates) =>
      sql.unsafe(`UPDATE ${table} AS r SET version = v.version_to, filters = v.filters, data = v.data
        FROM (VALUES ${updates.map((_, i) => updateTuple(1 + i * 7)).join(", ")}) AS v(organisation_id, resource_type, id, version_from, version_to, filters, data)
        WHERE r.organisation_id = v.organisation_id AND r.resource_type = v.resource_type AND r.id = v.id AND r.version = v.version_from
        RETURNING r.id`, updates.flatMap((u) => [u.organisation, u.resourceType, u.id, u.from, u.to, u.filters, u.data])).pipe(
        Effect.orDie,
        Effect.flatMap((rows) =>
          // The unit held these rows: one not written is a defect of the store, and rolls the unit back.
          rows.length === updates.length ? Effect.void : Effect.die(new Error(`${table}: ${updates.length - rows.length} rows the unit of work held were changed by another`)))
      ), { discard: true })
  })

/** Everything the unit holds back, written: when it ends. */
export const flushAll = (sql: SqlClient.SqlClient, state: UnitOfWorkState): Effect.Effect<void> =>
  Effect.andThen(
    Effect.forEach(new Set([...state.updated.values()].map((update) => update.table)), (table) => flushUpdated(sql, state, table), { discard: true }),
    flushAppended(sql, state)
  )

/**
 * Flushes what the unit open in the fiber holds for `table` before a statement reads it: the rows
 * appended, and the updates held when the statement reads rows by anything but their id (a read
 * by id of a row the unit holds is answered from `rows` and never reaches the table).
 */
export const flushBeforeReading = (sql: SqlClient.SqlClient, table: string, reads: "by id" | "by filters"): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    const state = fiber.getRef(CurrentUnitOfWork)
    if (state === undefined) return Effect.void
    return Effect.andThen(
      reads === "by id" || state.updated.size === 0 ? Effect.void : flushUpdated(sql, state, table),
      state.appended.has(table) ? flushAppended(sql, state, table) : Effect.void
    )
  })
