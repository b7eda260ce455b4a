import { Cause, Effect, Exit, Schema } from "effect"
import { NotFound, type StorageError } from "@paykit/core"
import {
  DuplicateId,
  type Filter,
  type ListQuery,
  type Page,
  type Repository,
  type ResourceDefinition,
  type ScanPage,
  VersionConflict,
  type Versioned
} from "@paykit/engine"
import type { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"
import type { Fragment, Statement } from "effect/sql/Statement"
import type { Row } from "effect/sql/SqlConnection"
import { DbInteger } from "./db-integer.ts"
import { orStorageError, storageErrorOf } from "./storage-error.ts"
import { namedStatements } from "./statement-metrics.ts"
import { CurrentUnitOfWork, flushBeforeReading, type UnitOfWorkState } from "./unit-of-work.ts"

/**
 * The repository port of one resource definition over its table (shape: migrations/resource-table.ts).
 *
 * Database failures (connection lost, a serialization failure, disk full, ...) are the ports'
 * `StorageError` (`storage-error.ts`: retryable as the driver classes them). Domain outcomes
 * (NotFound, DuplicateId, VersionConflict) are typed as the port says. A stored row that does not
 * decode is a defect: no migration wrote it.
 */

/** Table names and filter keys are inlined into SQL, so they must be plain identifiers. */
const IDENTIFIER = /^[a-z][a-z0-9_]*$/

export const assertIdentifier = (kind: string, value: string): string => {
  if (!IDENTIFIER.test(value)) throw new Error(`${kind} ${JSON.stringify(value)} is not a plain SQL identifier`)
  return value
}

/** Throws on a definition whose name or filter keys cannot be inlined into SQL. */
export const checkDefinition = (definition: { readonly name: string; readonly filters: object }): void => {
  assertIdentifier("resource", definition.name)
  for (const key of Object.keys(definition.filters)) assertIdentifier(`filter of ${definition.name}`, key)
}

const StoredRow = Schema.Struct({ version: DbInteger, data: Schema.Unknown })
const decodeStoredRow = Schema.decodeUnknownExit(StoredRow)
const AggregateRow = Schema.Struct({ key: Schema.NullOr(Schema.String), count: Schema.String, sum: Schema.String })
const decodeAggregateRow = Schema.decodeUnknownEffect(AggregateRow)
const VersionRow = Schema.Struct({ version: DbInteger })
const decodeVersionRow = Schema.decodeUnknownEffect(VersionRow)
const ExistsRow = Schema.Struct({ newer: Schema.Boolean, older: Schema.Boolean })
const decodeExistsRow = Schema.decodeUnknownEffect(ExistsRow)

/**
 * Where a definition's rows live: a table of their own (the event log), or the shared `resources`
 * table under `resource_type` = the definition's name.
 */
export interface Location {
  readonly table: string
  readonly typed: boolean
  /** Rows are never changed once written: a unit of work appends them when it ends (`unit-of-work.ts`). */
  readonly appendOnly?: boolean | undefined
}

/** The repository port, plus the statements of its reads (so tests can EXPLAIN them). */
export interface SqlRepository<A extends { readonly id: string; readonly created_at: string }, K extends string> extends Repository<A, K> {
  readonly statements: {
    readonly get: (organisation: string, id: string) => Statement<Row>
    readonly page: (organisation: string, query: ListQuery<K>) => Statement<Row>
    /**
     * Whether matches lie before a page's first row and after its last, in the list's order: its
     * cursors. `first` and `last` are the rows' ids, or, in an order by a key, their values and ids.
     */
    readonly cursors: (organisation: string, query: Pick<ListQuery<K>, "filters" | "order">, first: Place, last: Place) => Statement<Row>
    readonly scan: (organisation: string, filters: ListQuery<K>["filters"], page?: ScanPage) => Statement<Row>
    readonly aggregate: (organisation: string, filters: ListQuery<K>["filters"], by: K, sum: string) => Statement<Row>
  }
}

/** A row's place in a list: its id, and in an order by a key (`ListQuery.order`) its value of the key. */
export type Place = string | { readonly value: string; readonly id: string }

export const makeSqlRepository = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  sql: SqlClient.SqlClient,
  definition: ResourceDefinition<A, K>,
  location: Location
): SqlRepository<A, K> => {
  const table = sql(assertIdentifier("table", location.table))
  const named = namedStatements(location.table)
  const resourceType = assertIdentifier("resource", definition.name)
  /**
   * The key prefix of every statement: the organisation (tenancy), and the type in `resources`. The
   * type is inlined (a checked identifier), so a prepared statement's generic plan is made for its
   * own type, whose size may differ from another's by orders of magnitude.
   */
  const scope = (organisation: string): Fragment =>
    location.typed
      ? sql`organisation_id = ${organisation} AND resource_type = ${sql.literal(`'${resourceType}'`)}`
      : sql`organisation_id = ${organisation}`
  const filterKeys = Object.keys(definition.filters) as Array<K>
  for (const key of filterKeys) assertIdentifier(`filter of ${definition.name}`, key)
  // Exits, not effects: the schemas are synchronous, and a charge of the daily run encodes and
  // decodes a handful of rows, where each effect cost the steps (and allocations) of its own run.
  const encode = Schema.encodeExit(definition.schema)
  const decode = Schema.decodeUnknownExit(definition.schema)

  /** The filter values as stored: only those the resource has. */
  const extracted = (resource: A): string => {
    const values: Record<string, string> = {}
    for (const key of filterKeys) {
      const value = definition.filters[key](resource)
      if (value !== null) values[key] = value
    }
    return JSON.stringify(values)
  }

  /** A filter key's value, in the very expression (and partial-index predicate) its index has. */
  const valueOf = (key: string) => sql.literal(`(filters->>'${key}') COLLATE "C"`)
  const hasKey = (key: string) => sql.literal(`filters ? '${key}'`)
  /** The same expression as text, for an ORDER BY written as one literal. */
  const valueOfText = (key: string): string => `(filters->>'${key}') COLLATE "C"`
  const isPlace = (place: Place | Fragment): place is Place => typeof place === "string" || (typeof place === "object" && "value" in place && "id" in place)
  const idOf = (place: Place): string => typeof place === "string" ? place : place.id
  const valueText = (place: Place): Fragment => sql`${typeof place === "string" ? null : place.value}::text COLLATE "C"`
  /** A cursor's place: its id, or in an order by a key its row's value read by id. */
  const cursorPlace = (reading: Reading, organisation: string, id: string): Place | Fragment => reading.cursor(organisation, id)
  /** The ORDER BY merging ordered branches, on the value each selected as `sort_value`. */
  const mergedSort = (order: NonNullable<ListQuery<K>["order"]>, backwards: boolean): Fragment =>
    sql.literal(order.direction === "asc" !== backwards ? "sort_value ASC, id ASC" : "sort_value DESC, id DESC")

  /** The clause every row with a value for `key` meets: the key's partial-index predicate (`created_at`'s is on its value). */
  const presentKey = (key: string): Fragment => key === "created_at" ? sql`${valueOf(key)} IS NOT NULL` : hasKey(key)
  const checkedKey = (key: K): K => {
    // An unknown key is a bug in the caller; the in-memory adapter would throw on it too.
    if (!filterKeys.includes(key)) throw new Error(`${definition.name} has no filter ${key}`)
    return key
  }

  const filterClause = (key: string, filter: Filter): Fragment => {
    switch (filter.op) {
      case "eq":
        return sql`${hasKey(key)} AND ${valueOf(key)} = ${filter.value}`
      case "in":
        return filter.values.length === 0 ? sql`false` : sql`${hasKey(key)} AND ${valueOf(key)} IN ${sql.in(filter.values)}`
      case "range": {
        // A key's filter index is partial (rows that have the key), so the clause names the key
        // for the planner to prove it. `created_at`'s index (0055) is partial on the value being
        // there, which the planner proves from any bound itself (the comparison is strict).
        const bounds: Array<Fragment> = key === "created_at" ? [] : [hasKey(key)]
        if (filter.gt !== undefined) bounds.push(sql`${valueOf(key)} > ${filter.gt}`)
        if (filter.gte !== undefined) bounds.push(sql`${valueOf(key)} >= ${filter.gte}`)
        if (filter.lt !== undefined) bounds.push(sql`${valueOf(key)} < ${filter.lt}`)
        if (filter.lte !== undefined) bounds.push(sql`${valueOf(key)} <= ${filter.lte}`)
        // A range with no bound still requires a value, as the reference semantics do.
        if (filter.gt === undefined && filter.gte === undefined && filter.lt === undefined && filter.lte === undefined) {
          bounds.push(sql`${valueOf(key)} IS NOT NULL`)
        }
        return sql.and(bounds)
      }
    }
  }

  /**
   * The WHERE clauses of a query: those every matching row meets, and the membership filter of
   * several values (the first, when there are more) that splits the match into one equality per value.
   */
  const matchingParts = (organisation: string, filters: ListQuery<K>["filters"], order?: ListQuery<K>["order"]) => {
    const clauses: Array<Fragment> = [scope(organisation)]
    // An ordered list holds the rows that have the key (the reference semantics), which is the
    // predicate of the key's partial index: its rows in order.
    if (order !== undefined) clauses.push(presentKey(checkedKey(order.key)))
    let split: { readonly key: K; readonly values: ReadonlyArray<string> } | undefined
    if (filters !== undefined) {
      for (const key of Object.keys(filters) as Array<K>) {
        const filter = filters[key]
        if (filter === undefined) continue
        // An unknown key is a bug in the caller; the in-memory adapter would throw on it too.
        if (!filterKeys.includes(key)) throw new Error(`${definition.name} has no filter ${key}`)
        const values = filter.op === "in" ? [...new Set(filter.values)] : []
        if (split === undefined && values.length > 1) split = { key, values }
        else clauses.push(filterClause(key, filter))
      }
    }
    return { clauses, split }
  }

  /**
   * The WHERE clauses of a query, as one or more branches whose union is the match: a membership
   * filter of several values becomes one equality branch per value, so that each branch reads its
   * index in id order and a page stops after `limit` rows per branch, however many rows match.
   */
  const matching = (organisation: string, filters: ListQuery<K>["filters"], order?: ListQuery<K>["order"]): Array<Array<Fragment>> => {
    const { clauses, split } = matchingParts(organisation, filters, order)
    if (split === undefined) return [clauses]
    const { key, values } = split
    return values.map((value) => [...clauses, filterClause(key, { op: "eq", value })])
  }

  /** A row or resource that does not fit the definition's schema: a defect, named. */
  const corrupt = (what: string, cause: Cause.Cause<unknown>) =>
    Exit.die(new Error(`${definition.name}: ${what}: ${String(Cause.squash(cause))}`))

  /** A stored row as the resource and version it holds; one that does not decode is a defect. */
  const toVersioned = (row: unknown): Exit.Exit<Versioned<A>> => {
    const stored = decodeStoredRow(row)
    if (Exit.isFailure(stored)) return corrupt("stored row does not decode", stored.cause)
    const resource = decode(stored.value.data)
    if (Exit.isFailure(resource)) return corrupt("stored row does not decode", resource.cause)
    return Exit.succeed({ resource: resource.value, version: stored.value.version })
  }

  /** Stored rows as resources, in order: one loop, not an effect per row. */
  const allVersioned = (rows: ReadonlyArray<unknown>): Exit.Exit<Array<Versioned<A>>> => {
    const read: Array<Versioned<A>> = []
    for (const row of rows) {
      const versioned = toVersioned(row)
      if (Exit.isFailure(versioned)) return Exit.failCause(versioned.cause)
      read.push(versioned.value)
    }
    return Exit.succeed(read)
  }

  /** `resource` as its stored JSON text, or the defect of a resource that does not encode. */
  const encodedText = (resource: A): Exit.Exit<string> => {
    const exit = encode(resource)
    return Exit.isSuccess(exit)
      ? Exit.succeed(JSON.stringify(exit.value))
      : corrupt(`resource ${resource.id} does not encode`, exit.cause)
  }

  /** `resource` as a new row of the table (`rowOf`), or the defect of a resource that does not encode. */
  const newRow = (organisation: string, resource: A): Exit.Exit<Record<string, unknown>> =>
    Exit.map(encodedText(resource), (data) => rowOf(organisation, resource, data))

  /** A new row of the table: version 1, its filters extracted, its data encoded (`data`). */
  // Plain values, no casts: an INSERT's parameters take their columns' types (timestamptz, jsonb,
  // json), and a row of fragments cost three statement fragments to build and compile.
  const rowOf = (organisation: string, resource: A, data: string): Record<string, unknown> => ({
    organisation_id: organisation,
    ...(location.typed ? { resource_type: resourceType } : {}),
    id: resource.id,
    version: 1,
    created_at: resource.created_at,
    filters: extracted(resource),
    data
  })

  /** The unit of work's key of a row of this repository. */
  const keyOf = (organisation: string, id: string) => `${location.table}\u0000${resourceType}\u0000${organisation}\u0000${id}`
  /** Runs `f` with the unit of work open in the fiber, if any. */
  const withUnit = <B, E>(f: (unit: UnitOfWorkState | undefined) => Effect.Effect<B, E>): Effect.Effect<B, E> =>
    Effect.withFiber((fiber) => f(fiber.getRef(CurrentUnitOfWork)))
  /** Keeps `row` as the unit of work's copy of it; answers it. */
  const remember = (unit: UnitOfWorkState | undefined, organisation: string, row: Versioned<A>): Versioned<A> => {
    unit?.absent.delete(keyOf(organisation, row.resource.id))
    unit?.rows.set(keyOf(organisation, row.resource.id), row)
    return row
  }
  /** Before a statement reads this table: the rows the unit appended to it or holds updates of are written first. */
  const beforeReading: Effect.Effect<void, StorageError> = flushBeforeReading(sql, location.table, "by filters")
  const beforeReadingById: Effect.Effect<void, StorageError> = flushBeforeReading(sql, location.table, "by id")
  /** A further update of a row the unit wrote: kept for its end (`unit-of-work.ts`). */
  // No generator: in a batch of the daily run every update of a charge comes here.
  const deferUpdate = (unit: UnitOfWorkState, key: string, organisation: string, resource: A, expectedVersion: number): Effect.Effect<Versioned<A>, VersionConflict> => {
    const known = unit.rows.get(key)
    const actual = known?.version ?? expectedVersion
    if (actual !== expectedVersion) return Effect.fail(new VersionConflict({ resource: definition.name, id: resource.id, expectedVersion, actualVersion: actual }))
    const data = encodedText(resource)
    if (Exit.isFailure(data)) return Exit.failCause(data.cause)
    const from = unit.updated.get(key)?.from ?? expectedVersion
    unit.updated.set(key, { table: location.table, organisation, resourceType, id: resource.id, from, to: expectedVersion + 1, filters: extracted(resource), data: data.value })
    return Exit.succeed(remember(unit, organisation, { resource, version: expectedVersion + 1 }))
  }

  /** An insert written now (no unit, or one that does not hold its writes): a taken id is `DuplicateId`. */
  const insertNow = (organisation: string, resource: A, row: Record<string, unknown>) =>
    Effect.gen(function*() {
      yield* beforeReadingById
      const rows = yield* orStorageError(`insert ${definition.name}`)(named("insert", sql`INSERT INTO ${table} ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING version`))
      if (rows.length === 0) return yield* new DuplicateId({ resource: definition.name, id: resource.id })
      const unit = yield* CurrentUnitOfWork
      unit?.written.add(keyOf(organisation, resource.id))
      return remember(unit, organisation, { resource, version: 1 })
    })

  /** An update written now, its version tested in the same statement; a lost race is `VersionConflict`. */
  const updateNow = (organisation: string, resource: A, expectedVersion: number) =>
    Effect.gen(function*() {
      const data = yield* encodedText(resource)
      // The version test and the write are one statement: of two racing updates, PostgreSQL lets
      // the second re-read the row after the first commits, and its WHERE then matches nothing.
      const rows = yield* orStorageError(`update ${definition.name}`)(named("update", sql`UPDATE ${table}
        SET version = version + 1, filters = ${extracted(resource)}::jsonb, data = ${data}::json
        WHERE ${scope(organisation)} AND id = ${resource.id} AND version = ${expectedVersion}
        RETURNING version`))
      const written = rows[0]
      const unit = yield* CurrentUnitOfWork
      if (written !== undefined) {
        const { version } = yield* Effect.orDie(decodeVersionRow(written))
        unit?.written.add(keyOf(organisation, resource.id))
        return remember(unit, organisation, { resource, version })
      }
      // Lost: a retry in this unit must read the row again.
      unit?.rows.delete(keyOf(organisation, resource.id))
      const actual = yield* currentVersion(organisation, resource.id)
      if (actual === undefined) return yield* new NotFound({ resource: definition.name, id: resource.id })
      return yield* new VersionConflict({ resource: definition.name, id: resource.id, expectedVersion, actualVersion: actual })
    })

  /** An insert kept for the unit's end: an id the unit knows already is taken now, others at the end. */
  const holdInsert = (unit: UnitOfWorkState, organisation: string, resource: A, row: Record<string, unknown>) => {
    const key = keyOf(organisation, resource.id)
    if (unit.rows.has(key)) return Effect.fail(new DuplicateId({ resource: definition.name, id: resource.id }))
    unit.inserted.set(key, { table: location.table, row })
    unit.written.add(key)
    return Effect.succeed(remember(unit, organisation, { resource, version: 1 }))
  }

  const currentVersion = (organisation: string, id: string) =>
    sql`SELECT version FROM ${table} WHERE ${scope(organisation)} AND id = ${id}`.pipe(
      orStorageError(`update ${definition.name}`),
      Effect.flatMap((rows) => rows[0] === undefined ? Effect.succeed(undefined) : Effect.orDie(decodeVersionRow(rows[0]))),
      Effect.map((row) => row?.version)
    )

  const getStatement = (organisation: string, id: string) =>
    sql`SELECT version, data FROM ${table} WHERE ${scope(organisation)} AND id = ${id}`

  /**
   * Each id looked up by the whole key, one index probe per id whatever the statistics say. An
   * `id IN (...)` let the planner, whose statistics (stale after a bulk load, or with no ANALYZE yet)
   * put one row under the type, read every row of the type and filter the ids: a page of a bank
   * report cost a read of every payment stored. The lateral subquery (`OFFSET 0` keeps
   * it from being flattened into a join the planner could hash) is a router statement on Citus.
   * One id is read by `getStatement`, which Citus plans by its fast path: on a day of charges on
   * the cluster a lateral read of one id took its worker 0.9 ms, the plain read 0.55 ms
   * (pg_stat_statements, 2026-11-30; on one PostgreSQL 0.04 ms).
   */
  const getManyStatement = (organisation: string, ids: ReadonlyArray<string>) =>
    sql`SELECT r.version, r.data FROM (VALUES ${sql.csv(ids.map((id) => sql`(${id})`))}) AS wanted(id)
      CROSS JOIN LATERAL (SELECT version, data FROM ${table} WHERE ${scope(organisation)} AND id = wanted.id OFFSET 0) AS r`

  // With only `before`, the page is the items just ahead of the cursor: read backwards, then flip.
  const isUpwards = (query: Pick<ListQuery<K>, "before" | "after">) => query.before !== undefined && query.after === undefined

  /**
   * How a page reads its rows: in id order, newest first, or in an order by a key's value then id.
   * `ahead(place)` is the clause of the rows that come after `place` in the list, `behind` before
   * it; `sort(backwards)` the ORDER BY that reads the list forwards or backwards.
   */
  interface Reading {
    readonly ahead: (place: Place | Fragment) => Fragment
    readonly behind: (place: Place | Fragment) => Fragment
    readonly sort: (backwards: boolean) => Fragment
    /** The value of the row, as selected for merging branches (`sort_value`). */
    readonly selected: Fragment
    /** A cursor id as a place: in an order by a key, its row's value read by id. */
    readonly cursor: (organisation: string, id: string) => Place | Fragment
  }

  const byId: Reading = {
    ahead: (place) => sql`id < ${isPlace(place) ? idOf(place) : place}`,
    behind: (place) => sql`id > ${isPlace(place) ? idOf(place) : place}`,
    sort: (backwards) => sql.literal(backwards ? "id ASC" : "id DESC"),
    selected: sql.literal("NULL"),
    cursor: (_, id) => id
  }

  const byKey = (order: NonNullable<ListQuery<K>["order"]>): Reading => {
    const value = valueOf(checkedKey(order.key))
    const ascending = order.direction === "asc"
    /** `(value, id)` against a place: a known one, or a cursor's, read from its row (NULL, so nothing, when it has none). */
    const compare = (operator: ">" | "<", place: Place | Fragment): Fragment =>
      isPlace(place)
        ? sql`(${value}, id) ${sql.literal(operator)} (${valueText(place)}, ${idOf(place)})`
        : sql`(${value}, id) ${sql.literal(operator)} ${place}`
    return {
      ahead: (place) => compare(ascending ? ">" : "<", place),
      behind: (place) => compare(ascending ? "<" : ">", place),
      sort: (backwards) => sql.literal(ascending !== backwards ? `${valueOfText(order.key)} ASC, id ASC` : `${valueOfText(order.key)} DESC, id DESC`),
      selected: value,
      // A row constructor of a scalar subquery and the id, not a subquery of two columns: PostgreSQL
      // reads `(value, id) > ((SELECT ...), $1)` as a row comparison its index can start from.
      cursor: (organisation, id) => sql`((SELECT ${value} FROM ${table} WHERE ${scope(organisation)} AND id = ${id}), ${id}::text COLLATE "C")`
    }
  }
  const readingOf = (query: Pick<ListQuery<K>, "order">): Reading => query.order === undefined ? byId : byKey(query.order)

  /** One branch's rows in the page's window, in the page's order: an index range read, stopped at `limit`. */
  const branchPage = (organisation: string, branch: ReadonlyArray<Fragment>, query: ListQuery<K>, columns: Fragment) => {
    const reading = readingOf(query)
    const window = [...branch]
    if (query.after !== undefined) window.push(reading.ahead(cursorPlace(reading, organisation, query.after)))
    if (query.before !== undefined) window.push(reading.behind(cursorPlace(reading, organisation, query.before)))
    return sql`SELECT ${columns} FROM ${table} WHERE ${sql.and(window)}
      ORDER BY ${reading.sort(isUpwards(query))} LIMIT ${query.limit}`
  }

  const pageStatement = (organisation: string, query: ListQuery<K>) => {
    const branches = matching(organisation, query.filters, query.order)
    const [only] = branches
    if (branches.length === 1 && only !== undefined) return branchPage(organisation, only, query, sql`version, data`)
    // Ids are unique across branches (one value per key), so UNION ALL needs no de-duplication.
    const reading = readingOf(query)
    const parts = branches.map((branch) => sql`(${branchPage(organisation, branch, query, sql`${reading.selected} AS sort_value, id, version, data`)})`)
    const merged = query.order === undefined ? reading.sort(isUpwards(query)) : mergedSort(query.order, isUpwards(query))
    return sql`SELECT version, data FROM (${sql.join(" UNION ALL ", false)(parts)}) AS page
      ORDER BY ${merged} LIMIT ${query.limit}`
  }

  /**
   * Whether a row of the match lies beyond `place` on one side: each branch's nearest row, read in
   * index order with LIMIT 1, is present. Not `EXISTS (... id > $1)`: PostgreSQL strips the ORDER
   * BY and LIMIT of an EXISTS, and its plans (the generic one always) then chose a sequential scan
   * that reads the whole table when nothing lies beyond; a scalar subquery keeps them, and only an
   * index gives rows in order without sorting them all.
   */
  const beyond = (reading: Reading, branches: ReadonlyArray<ReadonlyArray<Fragment>>, place: Place, side: "before" | "after") =>
    sql.or(branches.map((branch) =>
      sql`(SELECT id FROM ${table} WHERE ${sql.and([...branch, side === "before" ? reading.behind(place) : reading.ahead(place)])}
        ORDER BY ${reading.sort(side === "before")} LIMIT 1) IS NOT NULL`
    ))

  const cursorStatement = (organisation: string, query: Pick<ListQuery<K>, "filters" | "order">, first: Place, last: Place) => {
    const branches = matching(organisation, query.filters, query.order)
    const reading = readingOf(query)
    return sql`SELECT ${beyond(reading, branches, first, "before")} AS newer, ${beyond(reading, branches, last, "after")} AS older`
  }

  /**
   * The rows a scan matches, as a subquery of `id, version, data`. A membership filter of several
   * values is looked up value by value, one probe of the key's index each, whatever the statistics
   * say: as one statement of OR-ed branches, statistics that put few rows under the type (stale
   * after a bulk load, or with no ANALYZE yet) let the planner read the index by the type alone and
   * filter the values, so a bank report's check for duplicate effects read every entry stored and a
   * report applied slower per entry the larger it was. `OFFSET 0` keeps each probe a subquery of
   * its own (not flattened into a join the planner could hash), a router statement on Citus.
   */
  const scanMatched = (organisation: string, filters: ListQuery<K>["filters"], after: string | undefined): Fragment => {
    const { clauses, split } = matchingParts(organisation, filters)
    const common = after === undefined ? clauses : [...clauses, sql`id > ${after}`]
    if (split === undefined) return sql`SELECT id, version, data FROM ${table} WHERE ${sql.and(common)}`
    const probe = [...common, hasKey(split.key), sql`${valueOf(split.key)} = wanted.value`]
    return sql`SELECT r.id, r.version, r.data FROM (VALUES ${sql.csv(split.values.map((value) => sql`(${value})`))}) AS wanted(value)
      CROSS JOIN LATERAL (SELECT id, version, data FROM ${table} WHERE ${sql.and(probe)} OFFSET 0) AS r`
  }

  const scanStatement = (organisation: string, filters: ListQuery<K>["filters"], page?: ScanPage) => {
    if (page === undefined) return sql`SELECT version, data FROM (${scanMatched(organisation, filters, undefined)}) AS matching ORDER BY id ASC`
    // A chunk of what is due: with `ORDER BY id LIMIT` alone the planner walks the primary key in
    // id order and filters every row of the type; `OFFSET 0` keeps the matching rows a subquery of
    // their own, found by the filters' index (a few due among many), then sorted for the chunk.
    return sql`SELECT version, data FROM (${scanMatched(organisation, filters, page.after)} OFFSET 0) AS matching
      ORDER BY id ASC LIMIT ${page.limit}`
  }

  /**
   * The groups alone leave the database: rows are found by the filters' indexes and folded there.
   * Counts and sums come as text, exact whatever their size.
   */
  const aggregateStatement = (organisation: string, filters: ListQuery<K>["filters"], by: K, sum: string) => {
    const where = sql.or(matching(organisation, filters).map((branch) => sql.and(branch)))
    const field = sql.literal(`'${assertIdentifier(`sum of ${definition.name}`, sum)}'`)
    return sql`SELECT filters->>${sql.literal(`'${by}'`)} AS key, count(*)::text AS count,
      coalesce(sum((data->>${field})::numeric), 0)::text AS sum
      FROM ${table} WHERE ${where} GROUP BY 1`
  }

  return {
    definition,
    statements: { get: getStatement, page: pageStatement, cursors: cursorStatement, scan: scanStatement, aggregate: aggregateStatement },
    aggregate: (organisation, filters, by, sum) =>
      Effect.andThen(beforeReading, Effect.suspend(() => named("aggregate", aggregateStatement(organisation, filters, by, sum)))).pipe(
        Effect.flatMap((rows) => Effect.forEach(rows, (row) => decodeAggregateRow(row))),
        orStorageError(`aggregate ${definition.name}`),
        Effect.map((rows) => rows.map((row) => ({ key: row.key, count: Number(row.count), sum: BigInt(row.sum) })))
      ),
    get: (organisation, id) =>
      withUnit((unit) => {
        // The unit's rows are this repository's own (the key names its table and type).
        const known = unit?.rows.get(keyOf(organisation, id)) as Versioned<A> | undefined
        if (known !== undefined) return Effect.succeed(known)
        if (unit?.absent.has(keyOf(organisation, id)) === true) return Effect.fail(new NotFound({ resource: definition.name, id }))
        return Effect.andThen(beforeReadingById, named("get", getStatement(organisation, id))).pipe(
          orStorageError(`get ${definition.name}`),
          Effect.flatMap((rows) =>
            rows[0] === undefined
              ? Effect.fail(new NotFound({ resource: definition.name, id }))
              : Effect.map(toVersioned(rows[0]), (row) => remember(unit, organisation, row))
          )
        )
      }),

    getMany: (organisation, ids) =>
      withUnit((unit) => {
        const known = unit === undefined ? [] : ids.flatMap((id) => {
          const row = unit.rows.get(keyOf(organisation, id)) as Versioned<A> | undefined
          return row === undefined ? [] : [row]
        })
        const unknown = [...new Set(ids)].filter((id) => unit === undefined || (!unit.rows.has(keyOf(organisation, id)) && !unit.absent.has(keyOf(organisation, id))))
        if (unknown.length === 0) return Effect.succeed(known)
        const [only, ...more] = unknown
        const statement = only !== undefined && more.length === 0 ? named("get", getStatement(organisation, only)) : named("get_many", getManyStatement(organisation, unknown))
        return Effect.andThen(beforeReadingById, statement).pipe(
          orStorageError(`get ${definition.name}`),
          Effect.flatMap(allVersioned),
          Effect.map((read) => {
            for (const row of read) remember(unit, organisation, row)
            const found = new Set(read.map((row) => row.resource.id))
            for (const id of unknown) if (!found.has(id)) unit?.absent.add(keyOf(organisation, id))
            return [...known, ...read]
          })
        )
      }),

    list: (organisation, query) =>
      Effect.gen(function*() {
        const upwards = isUpwards(query)
        yield* beforeReading
        const rows = yield* orStorageError(`list ${definition.name}`)(named("list", pageStatement(organisation, query)))
        const versioned = yield* allVersioned(rows)
        const items = (upwards ? versioned.reverse() : versioned).map((v) => v.resource)
        const first = items[0]
        const last = items[items.length - 1]
        if (first === undefined || last === undefined) return { items, before: null, after: null } satisfies Page<A>
        const placeOf = (row: A): Place => {
          const order = query.order
          return order === undefined ? row.id : { value: definition.filters[order.key](row) ?? "", id: row.id }
        }
        const exists = yield* orStorageError(`list ${definition.name}`)(named("list_cursors", cursorStatement(organisation, query, placeOf(first), placeOf(last))))
        const { newer, older } = yield* Effect.orDie(decodeExistsRow(exists[0]))
        return { items, before: newer ? first.id : null, after: older ? last.id : null } satisfies Page<A>
      }),

    scan: (organisation, filters, page) =>
      Effect.andThen(beforeReading, Effect.suspend(() => named("scan", scanStatement(organisation, filters, page)))).pipe(
        orStorageError(`scan ${definition.name}`),
        Effect.flatMap(allVersioned)
      ),

    insert: (organisation, resource) =>
      Effect.withFiber((fiber) => {
        const row = newRow(organisation, resource)
        if (Exit.isFailure(row)) return Exit.failCause(row.cause)
        const holding = fiber.getRef(CurrentUnitOfWork)
        return holding?.holdsWrites === true && location.typed ? holdInsert(holding, organisation, resource, row.value) : insertNow(organisation, resource, row.value)
      }),

    // One statement for the batch: a duplicate id fails it whole (a unique violation: `DuplicateId`).
    insertAll: (organisation, resources) =>
      Effect.withFiber((fiber) => {
        const rows: Array<Record<string, unknown>> = []
        for (const resource of resources) {
          const row = newRow(organisation, resource)
          if (Exit.isFailure(row)) return Exit.failCause(row.cause)
          rows.push(row.value)
        }
        const unit = fiber.getRef(CurrentUnitOfWork)
        if (unit !== undefined && location.appendOnly === true) {
          const appended = unit.appended.get(location.table)
          if (appended === undefined) unit.appended.set(location.table, rows)
          else for (const row of rows) appended.push(row)
          return Effect.void
        }
        const [first, ...rest] = rows
        if (first === undefined) return Effect.void
        for (const resource of resources) unit?.absent.delete(keyOf(organisation, resource.id))
        return named("insert_batch", sql`INSERT INTO ${table} ${sql.insert([first, ...rest])}`).pipe(
          Effect.asVoid,
          Effect.catch((error) =>
            Effect.fail(
              isSqlError(error) && error.reason._tag === "UniqueViolation"
                ? new DuplicateId({ resource: definition.name, id: resources.map((r) => r.id).join(", ") })
                : storageErrorOf(`insert ${definition.name}`, error)
            )
          )
        )
      }),

    update: (organisation, resource, expectedVersion) =>
      Effect.withFiber((fiber) => {
        const held = fiber.getRef(CurrentUnitOfWork)
        if (held !== undefined && location.typed) {
          const key = keyOf(organisation, resource.id)
          if (held.written.has(key)) return deferUpdate(held, key, organisation, resource, expectedVersion)
          // A unit that holds its writes holds a first update too, tested at its end against the
          // version expected (one the unit read otherwise is tested now, as before: a conflict).
          const read = held.rows.get(key)
          if (held.holdsWrites && (read === undefined || read.version === expectedVersion)) {
            held.written.add(key)
            return deferUpdate(held, key, organisation, resource, expectedVersion)
          }
        }
        return updateNow(organisation, resource, expectedVersion)
      })
  }
}
