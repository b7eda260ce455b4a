import { Cause, Config, Context, Effect, Layer, Redacted } from "effect"
import {
  DueWorkSchedule,
  DueWorkStore,
  EventLog,
  events,
  HoldWrites,
  RESOURCE_DEFINITIONS,
  type Repository,
  RepositoryBackend,
  type ResourceDefinition,
  Transactor,
  transitions
} from "@paykit/engine"
import { StorageError } from "@paykit/core"
import { SqlClient } from "effect/sql"
import type { MigrationError } from "effect/sql/Migrator"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import type { SchemaError } from "effect/Schema"
import {
  CITUS_SETTINGS,
  type CitusRefused,
  CitusSetting,
  type MigrationSet,
  migrateOn,
  MoreMigrations,
  STORE_DISTRIBUTION,
  type Topology,
  topologyOf,
  type UnplacedTable
} from "./citus.ts"
import { orStorageError, storageErrorOf } from "./storage-error.ts"
import { makeSqlDueWorkStore } from "./due-work.ts"
import { analyze } from "./maintenance.ts"
import { latestMigration, migrate, MIGRATIONS_TABLE } from "./migrations/index.ts"
import { makeOutbox, Outbox } from "./outbox.ts"
import * as PgliteClient from "./pglite-client.ts"
import { migratedPgliteClient } from "./pglite-template.ts"
import { checkDefinition, type Location, makeSqlRepository } from "./sql-repository.ts"
import { checkSchemaName, DEFAULT_SCHEMA, inSchema, postgresClient, SchemaName } from "./schema.ts"
import { CurrentUnitOfWork, flushAll, newUnitOfWork } from "./unit-of-work.ts"

/** Everything the SQL storage provides: the engine's storage ports (due work included) plus the outbox. */
export type SqlStorageServices = RepositoryBackend | Transactor | EventLog | Outbox | DueWorkStore | DueWorkSchedule

/** Keeps the failure of the unit of work apart from the database's own inside `withTransaction`. */
class WorkFailed<E> {
  constructor(readonly error: E) {}
}

/**
 * A unit of work's failure as its caller types it: the work's own error; BEGIN or COMMIT failing
 * is the database's (`StorageError`: a serialization failure at COMMIT is retryable, as the
 * driver classes it). A ROLLBACK that fails after the unit failed (its connection lost) is
 * dropped: the transaction is gone with the connection, and the unit's failure is the answer.
 * effect/sql's defects of a COMMIT whose cleanup failed stay defects.
 */
const unitFailure = <E>(cause: Cause.Cause<unknown>): Cause.Cause<E | StorageError> => {
  // effect/sql makes the work's failure a defect when the ROLLBACK after it fails too.
  const workDied = (reason: Cause.Reason<unknown>): boolean => Cause.isDieReason(reason) && reason.defect instanceof WorkFailed
  const failed = cause.reasons.some((reason) => Cause.isFailReason(reason) || workDied(reason))
  return Cause.fromReasons(cause.reasons.flatMap((reason): ReadonlyArray<Cause.Reason<E | StorageError>> => {
    if (Cause.isDieReason(reason) && reason.defect instanceof WorkFailed) return [Cause.makeFailReason((reason.defect as WorkFailed<E>).error)]
    if (Cause.isFailReason(reason)) {
      const error = reason.error
      if (error instanceof WorkFailed) return [Cause.makeFailReason(error.error as E)]
      if (error instanceof StorageError) return [Cause.makeFailReason(error)]
      return [isSqlError(error) ? Cause.makeFailReason(storageErrorOf("commit", error)) : Cause.makeDieReason(error)]
    }
    if (failed && Cause.isDieReason(reason) && isSqlError(reason.defect)) return []
    return [reason as Cause.Reason<never>]
  }))
}

/**
 * The engine's unit of work. A unit nested in another joins it (no savepoint): the outer decides.
 * The outermost unit is a transaction, or a savepoint when its caller opened a transaction around
 * it (the server's idempotent creation does, to commit a key with its resource): a failed unit
 * rolls back its own writes, a successful one joins the caller's transaction, which decides. The
 * unit keeps the rows it read, the history and events it appended and the further updates of rows it
 * wrote (`unit-of-work.ts`); they are written before it ends.
 */
export const makeTransactor = (sql: SqlClient.SqlClient): Transactor["Service"] =>
  Transactor.of({
    transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.withFiber((fiber): Effect.Effect<A, E | StorageError, R> => {
        if (fiber.getRef(CurrentUnitOfWork) !== undefined) return effect
        const unit = newUnitOfWork(fiber.getRef(HoldWrites))
        const work = Effect.tap(Effect.mapError(effect, (error) => new WorkFailed(error)), () => flushAll(sql, unit))
        return sql.withTransaction(Effect.provideService(work, CurrentUnitOfWork, unit)).pipe(
          Effect.catchCause((cause) => Effect.failCause(unitFailure<E>(cause)))
        )
      })
  })

/** The event log and the history have append-only tables of their own; every other resource lives in `resources`. */
const OWN_TABLES: ReadonlySet<string> = new Set([events.name, transitions.name])
const locationOf = (name: string): Location =>
  OWN_TABLES.has(name) ? { table: name, typed: false, appendOnly: true } : { table: "resources", typed: true, appendOnly: false }

/**
 * The distinct organisations of a table, read from its primary key (which leads with
 * `organisation_id`) one organisation at a time: a skip scan costs one index descent per
 * organisation, where `SELECT DISTINCT` read every row (420 ms at 410k rows).
 */
const organisationsOf = (table: "resources" | "events") =>
  `(WITH RECURSIVE found(organisation_id) AS (
    (SELECT organisation_id FROM ${table} ORDER BY organisation_id LIMIT 1)
    UNION ALL
    SELECT (SELECT t.organisation_id FROM ${table} t WHERE t.organisation_id > found.organisation_id ORDER BY t.organisation_id LIMIT 1)
    FROM found WHERE found.organisation_id IS NOT NULL
  ) SELECT organisation_id FROM found WHERE organisation_id IS NOT NULL)`

/** Every organisation holding data: the statement of `RepositoryBackend.organisations` (tests EXPLAIN it). */
export const ORGANISATIONS = `${organisationsOf("resources")} UNION ${organisationsOf("events")} ORDER BY 1`

/**
 * The same on Citus, which runs no recursive query across shards: each shard groups its own rows
 * by organisation (the key's first column) in parallel, and the coordinator merges the groups.
 */
export const ORGANISATIONS_DISTRIBUTED = "SELECT organisation_id FROM resources GROUP BY organisation_id UNION SELECT organisation_id FROM events GROUP BY organisation_id ORDER BY 1"

const makeBackend = (sql: SqlClient.SqlClient, topology: Topology): RepositoryBackend["Service"] => {
  const cache = new Map<string, { readonly definition: unknown; readonly repository: unknown }>()
  return RepositoryBackend.of({
    repository: <A extends { readonly id: string; readonly created_at: string }, K extends string>(
      definition: ResourceDefinition<A, K>
    ): Repository<A, K> => {
      const known = cache.get(definition.name)
      // Built from this very definition object, so it is this definition's repository.
      if (known !== undefined && known.definition === definition) return known.repository as Repository<A, K>
      const repository = makeSqlRepository(sql, definition, locationOf(definition.name))
      cache.set(definition.name, { definition, repository })
      return repository
    },
    organisations: sql.unsafe<{ organisation_id: string }>(topology._tag === "Distributed" ? ORGANISATIONS_DISTRIBUTED : ORGANISATIONS).pipe(
      orStorageError("list organisations"),
      Effect.map((rows) => rows.map((row) => row.organisation_id))
    )
  })
}

/**
 * Why the storage could not start: the database's failure (`StorageError`: connecting, migrating;
 * retryable when the connection was lost or refused), or a cluster it cannot use as it is
 * (docs/storage.md, "Citus").
 */
export type StorageStartError = StorageError | CitusRefused | UnplacedTable

/** A start-up failure as `StorageStartError`: the driver's and the migrator's errors become `StorageError`s of `operation`. */
const startError = (operation: string) => (error: StorageStartError | SqlError | MigrationError | SchemaError): StorageStartError => {
  if (error instanceof StorageError || error._tag === "CitusRefused" || error._tag === "UnplacedTable") return error
  if (isSqlError(error)) return storageErrorOf(operation, error)
  // A migration that failed, or a row of the catalogue that does not decode: no retry mends it.
  return new StorageError({ operation, retryable: false, cause: error })
}

/** `layer` with its start-up failures typed as `StorageStartError` (`startError`). */
const typedStart = <A, E extends StorageStartError | SqlError | MigrationError | SchemaError, R>(operation: string, layer: Layer.Layer<A, E, R>): Layer.Layer<A, StorageStartError, R> =>
  Layer.catch(layer, (error) => Layer.effectContext<A, StorageStartError, never>(Effect.fail(startError(operation)(error))))

/** store-sql's migrations, as `migrateOn` takes them. */
export const STORE_MIGRATIONS: MigrationSet = { run: migrate(), table: MIGRATIONS_TABLE, latest: latestMigration, plan: STORE_DISTRIBUTION }

/**
 * The SQL storage on whichever `SqlClient` is provided (PostgreSQL, PGlite or Citus): migrates the
 * database at start-up (on a Citus coordinator with workers, distributing the tables: `migrateOn`),
 * then serves the engine's ports.
 */
export const SqlStorage: Layer.Layer<SqlStorageServices, StorageStartError, SqlClient.SqlClient> = typedStart("migrate", Layer.effectContext(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // A migration may add indexes the planner knows nothing of yet (and PGlite never analyses by
    // itself): statistics now, not at the first maintenance run.
    const ran = yield* migrateOn([STORE_MIGRATIONS, ...(yield* MoreMigrations)])
    if (ran > 0) yield* analyze
    // Fail at start-up, not at the first request, on a definition that cannot be stored.
    for (const definition of [...RESOURCE_DEFINITIONS, events, transitions]) checkDefinition(definition)
    const backend = makeBackend(sql, yield* topologyOf)
    const dueWork = yield* makeSqlDueWorkStore
    return Context.make(RepositoryBackend, backend).pipe(
      Context.add(DueWorkStore, dueWork),
      Context.add(DueWorkSchedule, DueWorkSchedule.of({ schedule: dueWork.schedule })),
      Context.add(Transactor, makeTransactor(sql)),
      Context.add(Outbox, yield* makeOutbox)
    )
  })
).pipe((storage) => Layer.provideMerge(EventLog.layerFromBackend, storage)))

/** Where the storage's tables live: a schema of their own, `DEFAULT_SCHEMA` unless named. */
export interface SchemaOption {
  readonly schema?: string | undefined
}

/**
 * A PGlite client searching `schema` alone, the schema created if missing: a data directory, an
 * instance someone else opened, or in memory when neither is given.
 */
export const pgliteInSchema = (config: Omit<PgliteClient.PgliteClientConfig, "searchPath">, schema: string) =>
  inSchema(PgliteClient.layer({ ...config, searchPath: checkSchemaName(schema) }), schema)

/**
 * Storage on embedded PGlite, in its own schema: a data directory, an instance given, or in memory
 * when neither is given. In memory, the process's first database is migrated and kept as a
 * template (`migratedPglite`), and every later one starts from it: no `initdb`, no migrations.
 */
export const PgliteStorage = (config: Omit<PgliteClient.PgliteClientConfig, "searchPath"> & SchemaOption = {}) => {
  const { schema, ...client } = config
  const inMemory = client.dataDir === undefined && client.instance === undefined && client.template === undefined
  return SqlStorage.pipe(Layer.provideMerge(typedStart("connect", inMemory ? migratedPgliteClient({ schema: schema ?? DEFAULT_SCHEMA }) : pgliteInSchema(client, schema ?? DEFAULT_SCHEMA))))
}

/** Storage on PostgreSQL at `url` (a connection pool), in its own schema. */
export const PostgresStorage = (url: string, options: { readonly maxConnections?: number } & SchemaOption = {}) =>
  SqlStorage.pipe(Layer.provideMerge(typedStart("connect", postgresClient(url, { maxConnections: options.maxConnections, schema: options.schema ?? DEFAULT_SCHEMA }))))

/**
 * PostgreSQL when the `DATABASE_URL` config is set, otherwise PGlite on `dataDir` (in memory if
 * absent), in the schema given, else `PAYKIT_DB_SCHEMA`, else `DEFAULT_SCHEMA`; on a Citus
 * coordinator, distributed unless `PAYKIT_CITUS` is `off`. The `SqlClient` is provided too, for
 * health checks and operations.
 */
export const StorageFromEnvironment = (
  options: { readonly dataDir?: string } & SchemaOption = {}
): Layer.Layer<SqlStorageServices | SqlClient.SqlClient, StorageStartError | Config.ConfigError> =>
  Layer.unwrap(Effect.map(
    Config.all({
      url: Config.option(Config.Redacted("DATABASE_URL")),
      schema: Config.schema(SchemaName, "PAYKIT_DB_SCHEMA").pipe(Config.withDefault(DEFAULT_SCHEMA)),
      citus: Config.Literals(CITUS_SETTINGS, "PAYKIT_CITUS").pipe(Config.withDefault<CitusSetting>("auto"))
    }),
    ({ url, schema: configured, citus }): Layer.Layer<SqlStorageServices | SqlClient.SqlClient, StorageStartError> => {
      const schema = options.schema ?? configured
      const storage = url._tag === "Some" && Redacted.value(url.value).length > 0
        ? PostgresStorage(Redacted.value(url.value), { schema })
        : PgliteStorage({ dataDir: options.dataDir, schema })
      return Layer.provide(storage, Layer.succeed(CitusSetting, citus))
    }
  ))
