import { Context, Effect } from "effect"
import { callerTraceparent, type Versioned } from "@paykit/engine"
import type { StorageError } from "@paykit/core"
import type { SqlClient } from "effect/sql"
import { orStorageError } from "./storage-error.ts"
import { timedStatement } from "./statement-metrics.ts"

/**
 * What a unit of work opened by the SQL transactor keeps while it runs, so a batch costs statements
 * per batch, not per charge. A daily run's batch charges a hundred subscriptions in one unit, and each charge read the same mandate four
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
 * - `absent`: the rows a read of many (`getMany`) found missing, answered `NotFound` again without
 *   a statement (a charge reads its subscription's app attribution, which is usually absent). A
 *   row another transaction inserts meanwhile is missed, as a read made at that moment missed it.
 * - `holdsWrites` and `inserted` (the engine's `HoldWrites`, set by a daily batch): the unit also
 *   holds a row's first update (in `updated`, from the version it read) and its inserts, written
 *   when it ends or before a read of the table by filters. Their version test and uniqueness are
 *   checked then, for all of them at once: a row changed by another transaction or an id taken
 *   fails the unit as a defect, and the batch runs its items again one unit each, unheld.
 */
export interface UnitOfWorkState {
  readonly rows: Map<string, Versioned<unknown>>
  readonly absent: Set<string>
  readonly appended: Map<string, Array<Record<string, unknown>>>
  readonly written: Set<string>
  readonly updated: Map<string, DeferredUpdate>
  readonly holdsWrites: boolean
  readonly inserted: Map<string, HeldInsert>
}

/** A row inserted by a unit that holds its writes, not yet written. */
export interface HeldInsert {
  readonly table: string
  readonly row: Record<string, unknown>
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

export const newUnitOfWork = (holdsWrites: boolean): UnitOfWorkState => ({
  rows: new Map(),
  absent: new Set(),
  appended: new Map(),
  written: new Set(),
  updated: new Map(),
  holdsWrites,
  inserted: new Map()
})

/** Rows per multi-row statement: 1,000 rows of 7 parameters stay far under PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 1_000

/** Writes the rows `state` holds for `table` (every table when none is named), in the order appended. */
export const flushAppended = (sql: SqlClient.SqlClient, state: UnitOfWorkState, table?: string): Effect.Effect<void, StorageError> =>
  Effect.suspend(() => {
    const tables = table === undefined ? [...state.appended.keys()] : state.appended.has(table) ? [table] : []
    return Effect.forEach(tables, (name) => {
      const held = state.appended.get(name) ?? []
      state.appended.delete(name)
      return Effect.flatMap(name === EVENTS_TABLE ? traced(held) : Effect.succeed(held), (rows) =>
        Effect.forEach(statementsOf(rows), ([first, ...rest]) =>
          first === undefined ? Effect.void : Effect.asVoid(orStorageError(`append ${name}`)(timedStatement(`${name}.append`, sql`INSERT INTO ${sql(name)} ${sql.insert([first, ...rest])}`))), { discard: true }))
    }, { discard: true })
  })

const EVENTS_TABLE = "events"

/**
 * Events with the span appending them (migration 0075; null when none is traced), which the
 * outbox pump reads with each, so the webhook deliveries made of them join the span's trace.
 */
const traced = (rows: ReadonlyArray<Record<string, unknown>>) =>
  Effect.map(callerTraceparent, (trace_parent) => rows.map((row) => ({ ...row, trace_parent })))

/** `rows` cut into statements of `ROWS_PER_STATEMENT`. */
const statementsOf = <T>(rows: ReadonlyArray<T>): ReadonlyArray<ReadonlyArray<T>> =>
  Array.from({ length: Math.ceil(rows.length / ROWS_PER_STATEMENT) }, (_, i) => rows.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT))

/** A statement that wrote fewer of the unit's rows than it held: a defect, which rolls the unit back. */
const allWritten = (table: string, held: number, what: string) => (rows: ReadonlyArray<unknown>): Effect.Effect<void> =>
  rows.length === held ? Effect.void : Effect.die(new Error(`${table}: ${held - rows.length} rows the unit of work held were ${what}`))

/** Writes the inserts `state` holds for `table`, one statement a thousand; an id taken meanwhile fails the unit. */
export const flushInserted = (sql: SqlClient.SqlClient, state: UnitOfWorkState, table: string): Effect.Effect<void, StorageError> =>
  Effect.suspend(() => {
    const pending: Array<Record<string, unknown>> = []
    for (const [key, held] of state.inserted) {
      if (held.table !== table) continue
      state.inserted.delete(key)
      pending.push(held.row)
    }
    return Effect.forEach(statementsOf(pending), ([first, ...rest]) =>
      first === undefined ? Effect.void : timedStatement(`${table}.insert_held`, sql`INSERT INTO ${sql(table)} ${sql.insert([first, ...rest])} ON CONFLICT DO NOTHING RETURNING id`).pipe(
        orStorageError(`insert ${table}`),
        Effect.flatMap(allWritten(table, rest.length + 1, "taken by another"))
      ), { discard: true })
  })

/** Columns of a deferred update in its VALUES list: 6, after the organisation's parameter. */
const updateTuple = (first: number) =>
  `($${first}, $${first + 1}, $${first + 2}::int, $${first + 3}::int, $${first + 4}::jsonb, $${first + 5}::json)`

/**
 * One organisation's updates held for `table`, one statement a thousand, as `flushUpdated` writes
 * them; exported so a test can read its plan. The organisation is named once, as a parameter, so
 * on Citus the statement runs on that organisation's worker alone (a router statement) rather
 * than on every shard.
 */
export const heldUpdatesStatement = (sql: SqlClient.SqlClient, table: string, organisation: string, updates: ReadonlyArray<DeferredUpdate>) =>
  sql.unsafe(`UPDATE ${table} AS r SET version = v.version_to, filters = v.filters, data = v.data
    FROM (VALUES ${updates.map((_, i) => updateTuple(2 + i * 6)).join(", ")}) AS v(resource_type, id, version_from, version_to, filters, data)
    WHERE r.organisation_id = $1 AND r.resource_type = v.resource_type AND r.id = v.id AND r.version = v.version_from
    RETURNING r.id`, [organisation, ...updates.flatMap((u) => [u.resourceType, u.id, u.from, u.to, u.filters, u.data])])

/** Writes the updates `state` holds for `table` (the typed `resources` table is the only one updated), per organisation, one statement a thousand. */
export const flushUpdated = (sql: SqlClient.SqlClient, state: UnitOfWorkState, table: string): Effect.Effect<void, StorageError> =>
  Effect.suspend(() => {
    const pending = [...state.updated.values()].filter((update) => update.table === table)
    for (const update of pending) state.updated.delete(`${table}\u0000${update.resourceType}\u0000${update.organisation}\u0000${update.id}`)
    const organisations = [...new Set(pending.map((update) => update.organisation))]
    return Effect.forEach(organisations, (organisation) =>
      Effect.forEach(statementsOf(pending.filter((update) => update.organisation === organisation)), (updates) =>
        timedStatement(`${table}.update_held`, heldUpdatesStatement(sql, table, organisation, updates)).pipe(
          orStorageError(`update ${table}`),
          // A row the unit wrote is its own: one not matched is a defect of the store. A held first
          // update's row may have been changed by another since the unit read it: the batch's lost race.
          Effect.flatMap(allWritten(table, updates.length, "changed by another"))
        ), { discard: true }), { discard: true })
  })

/** Everything the unit holds back, written when it ends: inserts first (a held row's update follows its insert). */
export const flushAll = (sql: SqlClient.SqlClient, state: UnitOfWorkState): Effect.Effect<void, StorageError> =>
  Effect.andThen(
    Effect.forEach(
      new Set([...[...state.inserted.values()].map((held) => held.table), ...[...state.updated.values()].map((update) => update.table)]),
      (table) => flushHeld(sql, state, table),
      { discard: true }
    ),
    flushAppended(sql, state)
  )

/** The inserts and then the updates the unit holds for `table`, written. */
const flushHeld = (sql: SqlClient.SqlClient, state: UnitOfWorkState, table: string): Effect.Effect<void, StorageError> =>
  Effect.andThen(flushInserted(sql, state, table), flushUpdated(sql, state, table))

/**
 * Flushes what the unit open in the fiber holds for `table` before a statement reads it: the rows
 * appended, and the inserts and updates held when the statement reads rows by anything but their id (a read
 * by id of a row the unit holds is answered from `rows` and never reaches the table).
 */
export const flushBeforeReading = (sql: SqlClient.SqlClient, table: string, reads: "by id" | "by filters"): Effect.Effect<void, StorageError> =>
  Effect.withFiber((fiber) => {
    const state = fiber.getRef(CurrentUnitOfWork)
    if (state === undefined) return Effect.void
    return Effect.andThen(
      reads === "by id" || (state.updated.size === 0 && state.inserted.size === 0) ? Effect.void : flushHeld(sql, state, table),
      state.appended.has(table) ? flushAppended(sql, state, table) : Effect.void
    )
  })
