import { Context, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { MigrationError } from "effect/sql/Migrator"
import type { SqlError } from "effect/sql/SqlError"
import { DbInteger } from "./db-integer.ts"

/**
 * paykit on Citus (docs/storage.md, "Citus"): when the database is a Citus coordinator with
 * workers, the tables are distributed by organisation, co-located, so each organisation's rows of
 * every table lie together on one worker and its statements run there whole. Nothing needs
 * setting: the migrations see Citus and distribute what they make; `PAYKIT_CITUS=off` keeps every
 * table local to the one node.
 *
 * Which table goes where is one rule and one list (`placementOf`): a table whose primary key starts
 * with `organisation_id` is distributed by it; the few global tables are named in a
 * `DistributionPlan` as reference tables (a copy on every node) or coordinator tables (kept on the
 * coordinator, reachable from every node); any other table stops the distribution with its name, so
 * a table added later is never left out silently.
 */

/** The Citus versions (the extension's major.minor) paykit's tests ran on: any other is refused at start. */
export const TESTED_CITUS_VERSIONS: ReadonlyArray<string> = ["13.2"]

/** `PAYKIT_CITUS`: `auto` distributes on a Citus coordinator with workers, `off` keeps every table local. */
export const CITUS_SETTINGS = ["auto", "off"] as const
export type CitusSetting = (typeof CITUS_SETTINGS)[number]
export const CitusSetting = Context.Reference<CitusSetting>("@paykit/store-sql/CitusSetting", { defaultValue: () => "auto" })

/** The column every distributed table is distributed by. */
export const DISTRIBUTION_COLUMN = "organisation_id"

/** The table every distributed table is co-located with: the first one distributed. */
export const COLOCATION_ANCHOR = "resources"

/** Where a table lives on a cluster. */
export type Placement = "distributed" | "reference" | "coordinator"

/**
 * The global tables of a set of migrations (those not keyed by organisation), each placed by hand,
 * and the triggers that would write across shards, which the code replaces by statements on a
 * cluster (they are dropped as the tables are distributed).
 */
export interface DistributionPlan {
  /** Read on every request from any node, written rarely: a copy on every node. */
  readonly reference: ReadonlyArray<string>
  /** Kept on the coordinator and reachable from every node (the migrators' bookkeeping). */
  readonly coordinator: ReadonlyArray<string>
  readonly singleNodeTriggers: ReadonlyArray<{ readonly table: string; readonly trigger: string }>
}

/** store-sql's own tables: every one is keyed by organisation but its migrator's. */
export const STORE_DISTRIBUTION: DistributionPlan = { reference: [], coordinator: ["paykit_migrations"], singleNodeTriggers: [] }

/** Two plans as one (the server's tables beside store-sql's). */
export const mergePlans = (a: DistributionPlan, b: DistributionPlan): DistributionPlan => ({
  reference: [...a.reference, ...b.reference],
  coordinator: [...a.coordinator, ...b.coordinator],
  singleNodeTriggers: [...a.singleNodeTriggers, ...b.singleNodeTriggers]
})

/** A table no rule places: the error names it and what to do. */
export class UnplacedTable extends Schema.TaggedError<UnplacedTable>()("UnplacedTable", { table: Schema.String, message: Schema.String }) {}

const unplaced = (table: string) =>
  new UnplacedTable({
    table,
    message: `the table ${table} is not keyed by ${DISTRIBUTION_COLUMN} first and no distribution plan names it: add it to the plan's reference or coordinator tables`
  })

/** Where `table`, whose primary key starts with `firstKeyColumn` (none: no primary key), lives on a cluster. */
export const placementOf = (plan: DistributionPlan, table: string, firstKeyColumn: string | null): Placement | UnplacedTable => {
  if (plan.reference.includes(table)) return "reference"
  if (plan.coordinator.includes(table)) return "coordinator"
  if (firstKeyColumn === DISTRIBUTION_COLUMN) return "distributed"
  return unplaced(table)
}

/**
 * A start refused on a cluster paykit cannot use as it is: `message` is the one line saying what
 * to do (the server prints it as its failed start).
 */
export class CitusRefused extends Schema.TaggedError<CitusRefused>()("CitusRefused", { message: Schema.String }) {}

/** What the database is, as far as Citus goes. */
export type CitusNode =
  | { readonly _tag: "None" }
  | { readonly _tag: "Citus"; readonly version: string; readonly coordinator: boolean; readonly workers: number }

const VersionRows = Schema.Array(Schema.Struct({ version: Schema.String }))
const NodeRows = Schema.Array(Schema.Struct({ group_id: DbInteger, workers: DbInteger }))
const FlagRows = Schema.Array(Schema.Struct({ flag: Schema.Boolean }))

/** Whether Citus is installed in this database, its version, this node's role and the workers it knows. */
export const citusNode: Effect.Effect<CitusNode, SqlError | Schema.SchemaError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [extension] = yield* Schema.decodeUnknownEffect(VersionRows)(yield* sql`SELECT extversion AS version FROM pg_extension WHERE extname = 'citus'`)
  if (extension === undefined) return { _tag: "None" } as const
  const [node] = yield* Schema.decodeUnknownEffect(NodeRows)(yield* sql`SELECT (SELECT groupid FROM pg_dist_local_group) AS group_id,
    (SELECT count(*) FROM pg_dist_node WHERE groupid > 0 AND noderole = 'primary' AND isactive) AS workers`)
  // Group 0 is the coordinator's (before citus_set_coordinator_host too).
  return { _tag: "Citus", version: extension.version, coordinator: (node?.group_id ?? 0) === 0, workers: node?.workers ?? 0 } as const
})

/** `13.2-1` (the extension's version) as `13.2`. */
export const majorMinor = (version: string): string => version.split(/[.-]/).slice(0, 2).join(".")

/**
 * How the schema's tables are laid out, which decides some statements' shape (docs/storage.md,
 * "Citus"): `Local` on PostgreSQL, PGlite, or Citus with the tables kept local; `Distributed` once
 * they are distributed, from whichever node the connection reaches.
 */
export type Topology = { readonly _tag: "Local" } | { readonly _tag: "Distributed" }
export const LOCAL: Topology = { _tag: "Local" }
export const DISTRIBUTED: Topology = { _tag: "Distributed" }

/** Whether the schema's (the search path's) tables are distributed. */
export const topologyOf: Effect.Effect<Topology, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [citus] = yield* Schema.decodeUnknownEffect(FlagRows)(
    yield* sql`SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL AS flag`
  )
  if (citus?.flag !== true) return LOCAL
  return (yield* isDistributed) ? DISTRIBUTED : LOCAL
}).pipe(Effect.orDie)

/** Whether the anchor table of the schema is distributed (Citus installed). */
const isDistributed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* Schema.decodeUnknownEffect(FlagRows)(yield* sql`SELECT EXISTS (SELECT 1 FROM pg_dist_partition
    WHERE logicalrelid = to_regclass(${COLOCATION_ANCHOR}) AND partmethod = 'h') AS flag`)
  return row?.flag === true
})

const TableRow = Schema.Struct({ name: Schema.String, first_key: Schema.NullOr(Schema.String) })
const NameRows = Schema.Array(Schema.Struct({ name: Schema.String }))
const ReferenceRow = Schema.Struct({ child: Schema.String, parent: Schema.String })
const TriggerRow = Schema.Struct({ table: Schema.String, name: Schema.String, definition: Schema.String })

/**
 * The schema's tables, the primary key's first column of each, and whether Citus holds each
 * already: what `distribute` places. Exported for the test that places every table of a migrated
 * schema (on PGlite too, where nothing is held).
 */
export const schemaTables = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* Schema.decodeUnknownEffect(Schema.Array(TableRow))(yield* sql`SELECT c.relname AS name,
      (SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = c.oid AND i.indisprimary) AS first_key
    FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY c.relname`)
  const [citus] = yield* Schema.decodeUnknownEffect(FlagRows)(yield* sql`SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL AS flag`)
  const held = citus?.flag === true
    ? new Set((yield* Schema.decodeUnknownEffect(NameRows)(yield* sql`SELECT c.relname AS name FROM pg_dist_partition p
        JOIN pg_class c ON c.oid = p.logicalrelid WHERE c.relnamespace = current_schema()::regnamespace`)).map((row) => row.name))
    : new Set<string>()
  return tables.map((table) => ({ ...table, placed: held.has(table.name) }))
})

/**
 * Every table of the schema placed by `plan`, or the first table no rule places. Pure but for the
 * catalogue read; `distribute` acts on it, a test reads it on PGlite.
 */
export const placementsOf = (plan: DistributionPlan) =>
  Effect.gen(function*() {
    const tables = yield* schemaTables
    const placed: Array<{ readonly table: string; readonly placement: Placement; readonly done: boolean }> = []
    for (const row of tables) {
      const placement = placementOf(plan, row.name, row.first_key)
      if (placement instanceof UnplacedTable) return yield* Effect.fail(placement)
      placed.push({ table: row.name, placement, done: row.placed })
    }
    return placed
  })

/**
 * Distributes every table of the schema that Citus does not hold yet, by `plan`: reference tables
 * first (a table referenced by another before it, as Citus requires), then the coordinator's, then
 * the distributed ones, co-located with `COLOCATION_ANCHOR`. A table with rows has them moved to
 * the workers. Its triggers are taken off while it moves and made again after, on the distributed
 * table (Citus fires a shard's triggers as it copies rows in, and the events' trigger would queue
 * every event again), but the triggers the plan replaces, which are dropped. Then every function of
 * the schema searches the schema: a trigger fires on a worker, in a session whose search path is
 * not paykit's. Run on the coordinator, in the migrations' transaction (`citusSession`).
 */
export const distribute = (plan: DistributionPlan) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const waiting = (yield* placementsOf(plan)).filter((table) => !table.done)
    const of = (placement: Placement) => waiting.filter((table) => table.placement === placement).map((table) => table.table)
    const references = yield* Schema.decodeUnknownEffect(Schema.Array(ReferenceRow))(yield* sql`SELECT c.conrelid::regclass::text AS child,
        c.confrelid::regclass::text AS parent
      FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace AND c.conrelid <> c.confrelid`)
    const triggers = yield* Schema.decodeUnknownEffect(Schema.Array(TriggerRow))(yield* sql`SELECT c.relname AS table, t.tgname AS name,
        pg_get_triggerdef(t.oid) AS definition
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal AND c.relname = ANY(${waiting.map((t) => t.table)}::text[])
      ORDER BY c.relname, t.tgname`)
    for (const trigger of triggers) yield* sql`DROP TRIGGER ${sql(trigger.name)} ON ${sql(trigger.table)}`
    for (const table of parentsFirst(of("reference"), references)) yield* sql`SELECT create_reference_table(${table})`
    for (const table of of("coordinator")) yield* sql`SELECT citus_add_local_table_to_metadata(${table})`
    const distributed = of("distributed")
    const anchored = distributed.includes(COLOCATION_ANCHOR) ? [COLOCATION_ANCHOR, ...distributed.filter((t) => t !== COLOCATION_ANCHOR)] : distributed
    for (const table of anchored) {
      yield* table === COLOCATION_ANCHOR
        ? sql`SELECT create_distributed_table(${table}, ${DISTRIBUTION_COLUMN}, colocate_with => 'none')`
        : sql`SELECT create_distributed_table(${table}, ${DISTRIBUTION_COLUMN}, colocate_with => ${COLOCATION_ANCHOR})`
    }
    const replaced = (table: string, name: string) => plan.singleNodeTriggers.some((t) => t.table === table && t.trigger === name)
    for (const trigger of triggers) if (!replaced(trigger.table, trigger.name)) yield* sql.unsafe(trigger.definition)
    // A table distributed before may still carry a replaced trigger a later migration made.
    for (const { table, trigger } of plan.singleNodeTriggers) yield* sql`DROP TRIGGER IF EXISTS ${sql(trigger)} ON ${sql(table)}`
    yield* pinSearchPaths
    return waiting.length
  })

/** `tables` ordered so that each comes after every table of the list it references. */
const parentsFirst = (tables: ReadonlyArray<string>, references: ReadonlyArray<typeof ReferenceRow.Type>): ReadonlyArray<string> => {
  const ordered: Array<string> = []
  const visit = (table: string, path: ReadonlySet<string>) => {
    if (ordered.includes(table) || path.has(table)) return
    for (const r of references) if (r.child === table && tables.includes(r.parent)) visit(r.parent, new Set([...path, table]))
    ordered.push(table)
  }
  for (const table of tables) visit(table, new Set())
  return ordered
}

/**
 * Every PL/pgSQL function of the schema searches the schema alone: on a worker a trigger runs in
 * Citus's own session, whose search path is the server's default, and its unqualified names would
 * miss paykit's tables (or find a host's). Run after each migration, since `CREATE OR REPLACE`
 * drops a function's settings. Citus sends the change to the workers that hold the function.
 */
const pinSearchPaths = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const functions = yield* sql<{ readonly name: string }>`SELECT p.proname AS name FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    WHERE p.pronamespace = current_schema()::regnamespace AND l.lanname = 'plpgsql' AND p.pronargs = 0
      AND NOT (coalesce(p.proconfig, '{}') @> ARRAY['search_path=' || current_schema()])
    ORDER BY p.proname`
  const schema = yield* currentSchema
  for (const { name } of functions) yield* sql`ALTER FUNCTION ${sql(name)}() SET search_path = ${sql(schema)}`
})

const currentSchema = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ readonly name: string }>`SELECT current_schema() AS name`, (rows) => rows[0]?.name ?? "public"))

/**
 * The settings a transaction that migrates distributed tables needs: triggers may be made on them
 * (Citus refuses by default, since a trigger that writes to another shard cannot run; paykit's
 * write only to their own organisation's co-located rows), and its statements run one connection
 * per worker, so DDL and writes on one table in one transaction never meet on two connections.
 */
export const citusSession = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.andThen(
    sql`SET LOCAL citus.enable_unsafe_triggers = on`,
    sql`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`
  ))

/**
 * One migrator's migrations and what the distribution needs to know of them: its bookkeeping
 * table, its latest migration (a worker checks the coordinator ran it) and how its global tables
 * are placed. store-sql's are `STORE_MIGRATIONS` (sql-storage.ts); a composition adds its own
 * through `MoreMigrations` (the server's tables).
 */
export interface MigrationSet {
  readonly run: Effect.Effect<ReadonlyArray<unknown>, MigrationError | SqlError, SqlClient.SqlClient>
  readonly table: string
  readonly latest: number
  readonly plan: DistributionPlan
}

/**
 * Migrations a composition runs after store-sql's, in the same start-up (`SqlStorage`): on Citus
 * the tables of both are distributed together, once every table exists.
 */
export const MoreMigrations = Context.Reference<ReadonlyArray<MigrationSet>>("@paykit/store-sql/MoreMigrations", { defaultValue: () => [] })

/** What `migrateOn` may do on a cluster whose tables are still local. */
export interface MigrateOptions {
  /**
   * Move local tables that already hold a database's history onto the workers (`paykit migrate
   * --distribute`). Without it a start refuses such a database: the move copies every row, and
   * other processes may be serving the local tables meanwhile.
   */
  readonly distributeExisting?: boolean
}

/** Why a start on Citus was refused, in the words the person starting it needs. */
export const CITUS_REFUSALS = {
  off: "PAYKIT_CITUS=off, but paykit's tables in this database are distributed: unset PAYKIT_CITUS to use them",
  version: (version: string) =>
    `this database runs Citus ${version}, which paykit was not tested with (it is with ${TESTED_CITUS_VERSIONS.join(", ")}): use a tested version, or set PAYKIT_CITUS=off to keep paykit's tables local`,
  worker: "this is a Citus worker and paykit's schema here is not migrated and distributed yet: start paykit (or run paykit migrate) on the coordinator first",
  noWorkers: "this Citus coordinator has no workers: add them (SELECT citus_add_node('<host>', <port>)), or set PAYKIT_CITUS=off to keep paykit's tables on this one node",
  local: "paykit's tables on this Citus coordinator are local: run `paykit migrate --distribute` once to move them onto the workers, or set PAYKIT_CITUS=off to keep them local"
} as const

/** What the database holds of paykit's schema, as `startPlan` weighs it. */
export interface SchemaState {
  /** Whether the tables are distributed already. */
  readonly distributed: boolean
  /** Whether any migration ran here before (the tables hold a history). */
  readonly migratedBefore: boolean
  /** Whether every migration set's latest migration ran here. */
  readonly migratedFully: boolean
}

/**
 * What a start does on `node` (`migrateOn`): migrate as on one node, migrate and distribute in one
 * transaction, leave the schema to the coordinator, or refuse with the line to print.
 */
export type StartPlan =
  | { readonly _tag: "Local" }
  | { readonly _tag: "Distribute" }
  | { readonly _tag: "OnWorker" }
  | { readonly _tag: "Refuse"; readonly message: string }

/** The decision of `migrateOn`, apart from the database: a test walks every branch. */
export const startPlan = (node: CitusNode, setting: CitusSetting, schema: SchemaState, options: MigrateOptions = {}): StartPlan => {
  if (node._tag === "None") return { _tag: "Local" }
  if (setting === "off") return schema.distributed ? { _tag: "Refuse", message: CITUS_REFUSALS.off } : { _tag: "Local" }
  if (!TESTED_CITUS_VERSIONS.includes(majorMinor(node.version))) return { _tag: "Refuse", message: CITUS_REFUSALS.version(node.version) }
  if (!node.coordinator) return schema.distributed && schema.migratedFully ? { _tag: "OnWorker" } : { _tag: "Refuse", message: CITUS_REFUSALS.worker }
  if (node.workers === 0) return { _tag: "Refuse", message: CITUS_REFUSALS.noWorkers }
  if (!schema.distributed && schema.migratedBefore && options.distributeExisting !== true) return { _tag: "Refuse", message: CITUS_REFUSALS.local }
  return { _tag: "Distribute" }
}

/**
 * Runs the migration sets, in order, where they belong (`startPlan`); answers how many migrations
 * ran:
 *
 * - PostgreSQL and PGlite, or Citus with `PAYKIT_CITUS=off`: each as before, nothing else;
 * - a Citus coordinator with workers: in one transaction with the distribution of every table
 *   not yet distributed (`distribute`, by the sets' plans together), so a start that stops
 *   half-way leaves nothing half-placed;
 * - a Citus worker: nothing runs (DDL goes through the coordinator); the start is refused unless
 *   the coordinator has migrated and distributed the schema already.
 *
 * Refused (`CitusRefused`, one line saying what to do): a Citus version paykit was not tested with,
 * a coordinator without workers, a database of local tables with history (unless
 * `distributeExisting`), distributed tables with `PAYKIT_CITUS=off`.
 */
export const migrateOn = (sets: ReadonlyArray<MigrationSet>, options: MigrateOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const runAll = Effect.map(Effect.forEach(sets, (set) => set.run), (ran) => ran.reduce((n, r) => n + r.length, 0))
    const node = yield* citusNode
    const state = node._tag === "None" ? { distributed: false, migratedBefore: false, migratedFully: false } : yield* schemaState(sets)
    const plan = startPlan(node, yield* CitusSetting, state, options)
    switch (plan._tag) {
      case "Local":
        return yield* runAll
      case "OnWorker":
        return 0
      case "Refuse":
        return yield* new CitusRefused({ message: plan.message })
      case "Distribute":
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* citusSession
          const ran = yield* runAll
          yield* distribute(sets.map((set) => set.plan).reduce(mergePlans))
          return ran
        }))
    }
  })

const schemaState = (sets: ReadonlyArray<MigrationSet>) =>
  Effect.gen(function*() {
    const applied = yield* Effect.forEach(sets, (set) => Effect.map(appliedUpTo(set.table), (latest) => ({ latest, wanted: set.latest })))
    return {
      distributed: yield* isDistributed,
      migratedBefore: applied.some((a) => a.latest > 0),
      migratedFully: applied.every((a) => a.latest >= a.wanted)
    } satisfies SchemaState
  })

/** The latest migration recorded in `table` (0: none, or no table yet). */
export const appliedUpTo = (table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [exists] = yield* Schema.decodeUnknownEffect(FlagRows)(yield* sql`SELECT to_regclass(${table}) IS NOT NULL AS flag`)
    if (exists?.flag !== true) return 0
    const [row] = yield* Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ latest: Schema.NullOr(DbInteger) })))(
      yield* sql`SELECT max(migration_id) AS latest FROM ${sql(table)}`
    )
    return row?.latest ?? 0
  })

const ShardResultRows = Schema.Array(Schema.Struct({ success: Schema.Boolean, result: Schema.String }))
const JsonRows = Schema.fromJsonString(Schema.Array(Schema.Unknown))

/**
 * A read of every shard of `tables` (one table, or two co-located tables the read joins), as the
 * due-work poll and the outbox's pick make several times a second in every process:
 *
 * - over one connection per worker (`citus.max_adaptive_executor_pool_size = 1`, for its
 *   transaction): by default Citus opens more connections to run a statement's tasks in parallel
 *   and closes them at the transaction's end, and a read of 32 small shards then spent most of its
 *   time making connections (33 ms against 10 ms a read of the due candidates on this machine,
 *   117 ms against 42 ms the outbox's pick; docs/storage.md, "Which statements run where");
 * - going on while a worker is down: `statement` is a multi-shard read, which Citus fails whole
 *   when one shard's worker cannot be reached; then `perShard` runs on each shard through
 *   `run_command_on_shards`, and the rows of the shards that answered are the read's. Slower (a
 *   connection per shard), so only while a worker is unreachable: the organisations on the others
 *   keep their due work and webhooks going. `perShard` names the shard `%s` and takes no
 *   parameters (numbers written in), since its text is sent as it is.
 */
export const readingReachableShards = (
  sql: SqlClient.SqlClient,
  table: string,
  statement: Effect.Effect<ReadonlyArray<unknown>, SqlError>,
  perShard: string
): Effect.Effect<ReadonlyArray<unknown>, SqlError | Schema.SchemaError> =>
  Effect.catchReason(
    sql.withTransaction(Effect.andThen(sql`SET LOCAL citus.max_adaptive_executor_pool_size = 1`, statement)),
    "SqlError",
    "ConnectionError",
    () =>
      Effect.gen(function*() {
        const command = `SELECT coalesce(json_agg(row_to_json(s)), '[]')::text FROM (${perShard}) s`
        const results = yield* Schema.decodeUnknownEffect(ShardResultRows)(
          yield* sql`SELECT success, result FROM run_command_on_shards(${table}, ${command})`
        )
        const rows: Array<unknown> = []
        for (const shard of results) if (shard.success) rows.push(...(yield* Schema.decodeUnknownEffect(JsonRows)(shard.result)))
        return rows
      })
  )

/**
 * `effect` with the deletes the append-only tables refuse let through (the events' and the
 * history's triggers, store-sql migrations 0030 and 0064, pass a DELETE in a transaction whose
 * `paykit.retention` is `prune`), then refused again. Inside the caller's transaction. On Citus
 * the triggers run on the workers, so the setting must reach them: `SET LOCAL` under
 * `citus.propagate_set_commands = 'local'` is sent to every worker the transaction uses (a
 * `set_config` call is not).
 */
export const withAppendOnlyDeletes = <A, E, R>(
  sql: SqlClient.SqlClient,
  topology: Topology,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | SqlError, R> =>
  topology._tag === "Local"
    ? Effect.andThen(sql`SELECT set_config('paykit.retention', 'prune', true)`, Effect.tap(effect, () => sql`SELECT set_config('paykit.retention', '', true)`))
    : Effect.andThen(
      Effect.andThen(sql`SET LOCAL citus.propagate_set_commands = 'local'`, sql`SET LOCAL paykit.retention = 'prune'`),
      Effect.tap(effect, () => sql`SET LOCAL paykit.retention = ''`)
    )
