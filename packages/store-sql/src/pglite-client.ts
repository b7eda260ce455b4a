import { PGlite, type Results } from "@electric-sql/pglite"
import { Context, Effect, Layer, Scope, Semaphore, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import type { Connection } from "effect/sql/SqlConnection"
import {
  AuthorizationError,
  ConnectionError,
  ConstraintError,
  DeadlockError,
  LockTimeoutError,
  SerializationError,
  SqlError,
  type SqlErrorReason,
  SqlSyntaxError,
  StatementTimeoutError,
  UniqueViolation,
  UnknownError
} from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import { DEFAULT_PREPARED_STATEMENTS, makeStatementCache, runPrepared, type StatementCache } from "./pglite-statements.ts"

export { DEFAULT_PREPARED_STATEMENTS } from "./pglite-statements.ts"

/**
 * An Effect `SqlClient` over embedded PGlite (PostgreSQL compiled to WebAssembly).
 *
 * PGlite is one single-user backend: it runs one statement at a time and has one session, so a
 * transaction is the whole database's. Every statement and every transaction therefore leases the
 * one connection through a semaphore held per PGlite instance: a transaction keeps it from BEGIN
 * to COMMIT, so statements of other fibers wait instead of slipping into it.
 *
 * Several clients may share one instance (tests share one per worker, since booting takes
 * seconds), each in its own PostgreSQL schema: a client's `searchPath` is set on the session
 * whenever the lease passes to it from a client with another one.
 */

export interface PgliteClientConfig {
  /** The data directory; absent means an in-memory database that ends with the scope. */
  readonly dataDir?: string | undefined
  /** Run on an instance someone else opened (and will close) instead of opening one. */
  readonly instance?: PGlite | undefined
  /**
   * An in-memory database started from this data directory (a tar, `pgliteTemplate`) instead of
   * an empty one: no `initdb`, and migrations already applied find nothing to do.
   */
  readonly template?: Uint8Array | undefined
  /** Schema(s) for unqualified names, e.g. `"t_abc123"`; absent leaves PostgreSQL's default. */
  readonly searchPath?: string | undefined
  readonly transformResultNames?: ((name: string) => string) | undefined
  readonly transformQueryNames?: ((name: string) => string) | undefined
  readonly transformJson?: boolean | undefined
  /**
   * How many named prepared statements the session keeps (`DEFAULT_PREPARED_STATEMENTS`); the
   * first client of an instance sets it. 0 sends every statement unnamed, planned at each run.
   */
  readonly preparedStatements?: number | undefined
}

/**
 * What clients of one PGlite instance share: the statement lease, the session's search path and
 * its named statements.
 */
interface InstanceState {
  readonly semaphore: Semaphore.Semaphore
  readonly statements: StatementCache
  searchPath: string | undefined
}

const instances = new WeakMap<PGlite, InstanceState>()

const stateOf = (db: PGlite, preparedStatements: number): InstanceState => {
  const known = instances.get(db)
  if (known !== undefined) return known
  const fresh: InstanceState = {
    semaphore: Semaphore.makeUnsafe(1),
    statements: makeStatementCache(preparedStatements),
    searchPath: undefined
  }
  instances.set(db, fresh)
  return fresh
}

interface DatabaseErrorLike {
  readonly code?: unknown
  readonly constraint?: unknown
  readonly message?: unknown
}

const classify = (cause: unknown, operation: string): SqlErrorReason => {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as DatabaseErrorLike
  const code = typeof error.code === "string" ? error.code : undefined
  const message = typeof error.message === "string" ? error.message : `PGlite: ${operation} failed`
  const props = { cause, message, operation }
  if (code === undefined) return new UnknownError(props)
  if (code.startsWith("08")) return new ConnectionError(props)
  if (code === "42501") return new AuthorizationError(props)
  if (code.startsWith("42")) return new SqlSyntaxError(props)
  if (code === "23505") {
    const constraint = typeof error.constraint === "string" && error.constraint.length > 0 ? error.constraint : "unknown"
    return new UniqueViolation({ ...props, constraint })
  }
  if (code.startsWith("23")) return new ConstraintError(props)
  if (code === "40P01") return new DeadlockError(props)
  if (code === "40001") return new SerializationError(props)
  if (code === "55P03") return new LockTimeoutError(props)
  if (code === "57014") return new StatementTimeoutError(props)
  return new UnknownError(props)
}

const attempt = <A>(operation: string, run: () => Promise<A>): Effect.Effect<A, SqlError> =>
  Effect.tryPromise({ try: run, catch: (cause) => new SqlError({ reason: classify(cause, operation) }) })

type RowsTransform = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const makeConnection = (db: PGlite, state: InstanceState): Connection => {
  const query = <A>(operation: string, sql: string, params: ReadonlyArray<unknown>, rowMode: "object" | "array") =>
    attempt(operation, () =>
      state.statements.limit > 0
        // PGlite's two locks, as `query` takes them: a statement waits for a transaction the
        // instance's other user opened with `transaction`, instead of running inside it, and
        // nothing slips between its prepare and its run.
        ? db._runExclusiveTransaction(() =>
          db._runExclusiveQuery(() => runPrepared(db, state.statements, state.searchPath, sql, params, rowMode))
        ) as Promise<Results<A>>
        : db.query<A>(sql, [...params], { rowMode }))
  const run = (sql: string, params: ReadonlyArray<unknown>): Effect.Effect<Results<Record<string, unknown>>, SqlError> =>
    query("execute", sql, params, "object")
  const rows = (sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform) =>
    Effect.map(run(sql, params), (result) => transformRows === undefined ? result.rows : transformRows(result.rows))
  const values = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.map(query<ReadonlyArray<unknown>>("executeValues", sql, params, "array"), (result) => result.rows)
  // Unprepared and without parameters (the transaction controls BEGIN, COMMIT and savepoints, and
  // a statement run `.unprepared`): PGlite's simple query runs one in a single exchange with the
  // backend and leaves no named statement in the session for what runs once or is one word.
  const unprepared = (sql: string, params: ReadonlyArray<unknown>, transformRows: RowsTransform) =>
    params.length > 0 ? rows(sql, params, transformRows) : Effect.map(
      attempt("executeUnprepared", () => db.exec(sql)),
      (results) => {
        const last = (results.at(-1)?.rows ?? []) as ReadonlyArray<Record<string, unknown>>
        return transformRows === undefined ? last : transformRows(last)
      }
    )
  return {
    execute: rows,
    executeUnprepared: unprepared,
    executeRaw: run,
    executeValues: values,
    executeValuesUnprepared: values,
    // PGlite has no portals to read from in batches: the stream is the buffered result.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(rows(sql, params, transformRows))
  }
}

const escape = Statement.defaultEscape("\"")

interface PgliteJson extends Statement.Custom<"PgliteJson", unknown> {}
const PgliteJson = Statement.custom<PgliteJson>("PgliteJson")

/**
 * The PostgreSQL statement compiler (`$n` placeholders, `"` identifiers), as `@effect/sql-pg`
 * builds it, except that JSON fragments are sent as text, which PGlite casts on the server.
 */
export const makeCompiler = (transform?: (name: string) => string, transformJson = true): Statement.Compiler => {
  const transformValue = transformJson && transform !== undefined
    ? Statement.defaultTransforms(transform).value
    : undefined
  return Statement.makeCompiler<PgliteJson>({
    dialect: "pg",
    placeholder: (index) => `$${index}`,
    onIdentifier: transform === undefined
      ? escape
      : (value, withoutTransform) => withoutTransform ? escape(value) : escape(transform(value)),
    onRecordUpdate: (placeholders, valueAlias, valueColumns, values, returning) => [
      `(values ${placeholders}) AS ${valueAlias}${valueColumns}${returning ? ` RETURNING ${returning[0]}` : ""}`,
      returning ? values.flat().concat(returning[1]) : values.flat()
    ],
    onCustom: (type, placeholder, withoutTransform) => {
      const value = withoutTransform || transformValue === undefined ? type.paramA : transformValue(type.paramA)
      return [`${placeholder(undefined)}::jsonb`, [JSON.stringify(value)]]
    }
  })
}

/** The service a PGlite client adds to `SqlClient`: JSON parameters and the instance itself. */
export interface PgliteClient extends SqlClient.SqlClient {
  readonly json: (value: unknown) => Statement.Fragment
  readonly pglite: PGlite
  /**
   * Runs `use` on the instance with the lease held, so no other statement of the instance's
   * clients runs between its statements: for what only PGlite's own API does (`COPY ... FROM
   * '/dev/blob'`). Never inside this client's transaction, which holds the lease already.
   */
  readonly exclusive: <A>(use: (db: PGlite) => Promise<A>) => Effect.Effect<A, SqlError>
}

export const PgliteClient = Context.Service<PgliteClient>("@paykit/store-sql/PgliteClient")

/** How a new instance opens: a data directory, or in memory, empty or from a template. */
const openOptions = (config: PgliteClientConfig) =>
  config.dataDir !== undefined ? { dataDir: config.dataDir }
    : config.template !== undefined ? { loadDataDir: new Blob([config.template]) }
    : {}

/** Opens (or reuses) a PGlite instance and builds a `SqlClient` on it, for the life of the scope. */
export const make = (
  config: PgliteClientConfig = {}
): Effect.Effect<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const db = config.instance ?? (yield* Effect.acquireRelease(
      attempt("open", () => PGlite.create(openOptions(config))),
      (opened) => Effect.promise(() => opened.close())
    ))
    const state = stateOf(db, config.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS)
    const connection = makeConnection(db, state)
    const searchPath = config.searchPath
    // Runs with the lease held: puts this client's search path on the shared session if needed.
    const leased: Effect.Effect<Connection, SqlError> = Effect.suspend(() =>
      searchPath === undefined || state.searchPath === searchPath
        ? Effect.succeed(connection)
        : attempt("setSearchPath", () => db.query(`SET search_path TO ${searchPath}`)).pipe(
          Effect.map(() => {
            state.searchPath = searchPath
            return connection
          })
        )
    )
    const acquirers = SqlClient.makeSqliteAcquirers({ connection: leased, semaphore: state.semaphore })
    const compiler = makeCompiler(config.transformQueryNames, config.transformJson)
    const transformRows = config.transformResultNames === undefined
      ? undefined
      : Statement.defaultTransforms(config.transformResultNames, config.transformJson).array
    const client = yield* SqlClient.make({
      acquirer: acquirers.acquirer,
      borrower: acquirers.borrower,
      transactionAcquirer: acquirers.transactionAcquirer,
      onCommitFailure: acquirers.onCommitFailure,
      compiler,
      driver: "pglite",
      releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
      spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", config.dataDir ?? "memory"]],
      transformRows
    })
    return Object.assign(client, {
      json: (value: unknown) => Statement.fragment([PgliteJson(value, undefined, undefined)]),
      pglite: db,
      exclusive: <A>(use: (db: PGlite) => Promise<A>) =>
        Effect.scoped(Effect.flatMap(acquirers.acquirer, () => attempt("exclusive", () => use(db))))
    })
  })

/** `PgliteClient` and `SqlClient` for the life of the layer. */
export const layer = (config: PgliteClientConfig = {}): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.effectContext(
    Effect.map(make(config), (client) =>
      Context.make(PgliteClient, client).pipe(Context.add(SqlClient.SqlClient, client)))
  ).pipe(Layer.provide(Reactivity.layer))
