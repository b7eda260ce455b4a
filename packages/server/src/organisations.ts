import { Clock, Context, Effect, Layer, Schema } from "effect"
import { type DueWorkSchedule, scheduleFirstDailyRun, scheduleFirstRetentionRun } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { type Topology, topologyOf, withAppendOnlyDeletes } from "@paykit/store-sql"
import { SERVER_MODES, type ServerMode } from "./config.ts"

/** The organisations this server hosts (`organisations`, migrations 0001, 0011 and 0013). */

/**
 * Who made an organisation: the operator (the first start's, one made with the sandbox token or
 * from the environment) or a merchant signing up on a partner app's consent page. Only the
 * operator's may send webhooks to loopback receivers (`organisationWebhookTrust`).
 */
export const ORGANISATION_ORIGINS = ["operator", "signup"] as const
export type OrganisationOrigin = (typeof ORGANISATION_ORIGINS)[number]

export interface Organisation {
  readonly id: string
  readonly name: string
  readonly environment: ServerMode
  /** Who made it: the operator's may send webhooks to loopback receivers, a signup's may not. */
  readonly origin: OrganisationOrigin
  /**
   * Made through `POST /sandbox/organisations` (with the sandbox token or the admin secret), not by
   * the first start or a signup: what that endpoint lists and may delete.
   */
  readonly madeByOperator?: boolean
}

/** An organisation as listed, with when it was made. */
export interface OrganisationRecord extends Organisation {
  readonly madeByOperator: boolean
  readonly createdAt: string
}

const OrganisationRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  environment: Schema.Literals(SERVER_MODES),
  origin: Schema.Literals(ORGANISATION_ORIGINS),
  made_by_operator: Schema.Boolean,
  created_ms: Schema.Number
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))
const decodeOrigin = Schema.decodeUnknownEffect(Schema.Literals(ORGANISATION_ORIGINS))
const recordOf = (row: typeof OrganisationRow.Type): OrganisationRecord => ({
  id: row.id,
  name: row.name,
  environment: row.environment,
  origin: row.origin,
  madeByOperator: row.made_by_operator,
  createdAt: new Date(row.created_ms).toISOString()
})

/** The server's tables that hold no organisation's rows of their own, whatever their columns say. */
const NOT_OWNED = new Set(["organisations"])

export class Organisations extends Context.Service<Organisations, {
  /** Every organisation, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<OrganisationRecord>>
  /** Who made an organisation; undefined for one this server does not host. */
  readonly originOf: (id: string) => Effect.Effect<OrganisationOrigin | undefined>
  /**
   * Adds an organisation, with its first daily run and retention run, in one transaction, at
   * `startAt` (epoch milliseconds) when that is later than now (its clock is then raised to it by
   * the caller), else on real time.
   */
  readonly insert: (organisation: Organisation, startAt?: number) => Effect.Effect<void>
  /**
   * Removes the organisation and every row it owns, in every table of the engine and the server
   * (resources, events, due work, tokens, webhooks, its clock), and every row of another
   * organisation that points at one of them (a grant of its partner app, a token issued to the
   * app), in one transaction; false when there was none. `detach` runs first in that transaction,
   * once the organisation is locked: what other organisations hold of it that is no row pointing
   * at it (the app's webhook endpoint in each organisation that connected it).
   */
  readonly remove: (id: string, detach?: Effect.Effect<void>) => Effect.Effect<boolean>
}>()("@paykit/server/Organisations") {
  static readonly layerSql: Layer.Layer<Organisations, never, SqlClient.SqlClient | DueWorkSchedule> = Layer.effect(
    Organisations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const topology = yield* topologyOf
      const context = yield* Effect.context<DueWorkSchedule>()
      // Taken at build: an organisation made inside a request must not start on the caller's clock.
      const real = yield* Clock.Clock
      return Organisations.of({
        all: sql`SELECT id, name, environment, origin, made_by_operator, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms FROM organisations ORDER BY created_at, id`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map(recordOf)),
          Effect.orDie
        ),
        originOf: (id) =>
          sql<{ origin: string }>`SELECT origin FROM organisations WHERE id = ${id}`.pipe(
            Effect.flatMap((rows) => rows.length === 0 ? Effect.succeed(undefined) : decodeOrigin(rows[0]?.origin)),
            Effect.orDie
          ),
        insert: (o, startAt) =>
          Effect.orDie(sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO organisations (id, name, environment, origin, made_by_operator) VALUES (${o.id}, ${o.name}, ${o.environment}, ${o.origin}, ${o.madeByOperator === true})`
            const realNow = real.currentTimeMillisUnsafe()
            const now = Math.max(realNow, startAt ?? realNow)
            yield* Effect.provideContext(Effect.andThen(scheduleFirstDailyRun(o.id, now), scheduleFirstRetentionRun(o.id, now)), context)
          }))),
        remove: (id, detach = Effect.void) => Effect.orDie(sql.withTransaction(removeOrganisation(sql, topology, id, detach)))
      })
    })
  )
}

const TableRow = Schema.Struct({ table_name: Schema.String, column_name: Schema.String })
const ReferenceRow = Schema.Struct({ child: Schema.String, parent: Schema.String, child_columns: Schema.String, parent_columns: Schema.String })
const decodeTables = Schema.decodeUnknownEffect(Schema.Array(TableRow))
const decodeReferences = Schema.decodeUnknownEffect(Schema.Array(ReferenceRow))

/** A foreign key: the child's columns that hold the parent's (in order). */
interface Reference {
  readonly child: string
  readonly parent: string
  readonly childColumns: ReadonlyArray<string>
  readonly parentColumns: ReadonlyArray<string>
}

/** Every foreign key of the schema between two tables, with its columns (names joined by commas: identifiers hold none). */
const REFERENCES = `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
  (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS child_columns,
  (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.confkey) WITH ORDINALITY AS k(n, i)
    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS parent_columns
  FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid <> c.confrelid
    AND c.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())`

/**
 * Every table of the schema keyed by organisation is found in the catalogue rather than listed
 * here, so a table added later is not left holding a removed organisation's rows; so is every
 * table whose rows point at one of those by a foreign key, whichever organisation they belong to
 * (another organisation's grant of the removed organisation's partner app, and the token it was
 * issued). A table is emptied of those rows before any table it references (`outbox` before
 * `events`, grants before tokens and apps), then the organisation itself goes.
 */
const removeOrganisation = (sql: SqlClient.SqlClient, topology: Topology, id: string, detach: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const locked = yield* sql`SELECT id FROM organisations WHERE id = ${id} FOR UPDATE`
    if (locked.length === 0) return false
    yield* detach
    const columns = yield* Effect.flatMap(sql`SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_name = 'organisation_id' OR column_name LIKE '%\\_organisation\\_id' ESCAPE '\\')
      ORDER BY table_name, column_name`, decodeTables)
    const references: ReadonlyArray<Reference> = (yield* Effect.flatMap(sql.unsafe(REFERENCES), decodeReferences)).map((r) => ({
      child: r.child,
      parent: r.parent,
      childColumns: r.child_columns.split(","),
      parentColumns: r.parent_columns.split(",")
    }))
    const owning = new Map<string, Array<string>>()
    for (const c of columns) if (!NOT_OWNED.has(c.table_name)) owning.set(c.table_name, [...(owning.get(c.table_name) ?? []), c.column_name])
    const tables = pointingAt([...owning.keys()], references)
    /** The rows of `table` to remove: the organisation's own, and those pointing at a removed row of another table. */
    const removed = (table: string, path: ReadonlySet<string>): Fragment =>
      sql.or([
        ...(owning.get(table) ?? []).map((column) => sql`${sql(column)} = ${id}`),
        ...references.filter((r) => r.child === table && tables.includes(r.parent) && !path.has(r.parent)).map((r) =>
          sql`(${identifiers(sql, r.childColumns)}) IN (SELECT ${identifiers(sql, r.parentColumns)} FROM ${sql(r.parent)} WHERE ${removed(r.parent, new Set([...path, table]))})`
        )
      ])
    // The events and the history are append-only except to retention (store-sql's migrations 0030,
    // 0064): removing an organisation is retention of all it has, and declares itself so.
    yield* withAppendOnlyDeletes(sql, topology, Effect.forEach(childrenFirst(tables, references), (table) =>
      sql`DELETE FROM ${sql(table)} WHERE ${removed(table, new Set())}`, { discard: true }))
    yield* sql`DELETE FROM organisations WHERE id = ${id}`
    return true
  })

type Fragment = ReturnType<SqlClient.SqlClient["or"]>

const identifiers = (sql: SqlClient.SqlClient, names: ReadonlyArray<string>): Fragment =>
  sql.join(", ", false)(names.map((name) => sql`${sql(name)}`))

/** `owning` and every table whose rows point at one of them, however many references away. */
export const pointingAt = (owning: ReadonlyArray<string>, references: ReadonlyArray<{ readonly child: string; readonly parent: string }>): ReadonlyArray<string> => {
  const tables = [...owning]
  for (let grown = true; grown;) {
    grown = false
    for (const r of references) {
      if (tables.includes(r.parent) && !tables.includes(r.child) && !NOT_OWNED.has(r.child)) {
        tables.push(r.child)
        grown = true
      }
    }
  }
  return tables
}

/** `tables` ordered so that each comes before every table it references. */
export const childrenFirst = (tables: ReadonlyArray<string>, references: ReadonlyArray<{ readonly child: string; readonly parent: string }>): ReadonlyArray<string> => {
  const ordered: Array<string> = []
  const visit = (table: string, path: ReadonlySet<string>) => {
    if (ordered.includes(table) || path.has(table)) return
    // Whoever references this table goes first.
    for (const r of references) if (r.parent === table && tables.includes(r.child)) visit(r.child, new Set([...path, table]))
    ordered.push(table)
  }
  for (const table of tables) visit(table, new Set())
  return ordered
}
