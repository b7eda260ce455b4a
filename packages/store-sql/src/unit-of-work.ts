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
 */
export interface UnitOfWorkState {
  readonly rows: Map<string, Versioned<unknown>>
  readonly appended: Map<string, Array<Record<string, unknown>>>
}

/** The unit of work open in the fiber, if the SQL transactor opened one. */
export const CurrentUnitOfWork = Context.Reference<UnitOfWorkState | undefined>("@paykit/store-sql/CurrentUnitOfWork", {
  defaultValue: () => undefined
})

export const newUnitOfWork = (): UnitOfWorkState => ({ rows: new Map(), appended: new Map() })

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

/** Flushes what the unit open in the fiber holds for `table` before a statement reads it. */
export const flushBeforeReading = (sql: SqlClient.SqlClient, table: string): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    const state = fiber.getRef(CurrentUnitOfWork)
    return state === undefined || !state.appended.has(table) ? Effect.void : flushAppended(sql, state, table)
  })
