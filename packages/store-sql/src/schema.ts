import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { CitusSetting } from "./citus.ts"
import { type CitusRouting, routedOnCitus } from "./citus-routing.ts"

/**
 * The PostgreSQL schema paykit's tables live in. Every connection's `search_path` is that schema
 * alone (`pg_catalog`, where the built-in functions and types are, is always searched first), so
 * every unqualified name in the migrations and statements lands in it: tables, sequences, the
 * triggers' functions and both migrators' bookkeeping tables. docs/storage.md says why this and not
 * qualified statements.
 */

/** The schema of an embedder that names none: paykit's tables beside the host's, never among them. */
export const DEFAULT_SCHEMA = "paykit"

/**
 * A plain lower-case identifier: it needs no quoting in `search_path`, `CREATE SCHEMA` or a lock key,
 * and cannot smuggle a second statement in. `pg_` names are PostgreSQL's own.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

export const isSchemaName = (name: string): boolean => SCHEMA_NAME.test(name) && !name.startsWith("pg_")

export const SCHEMA_NAME_RULE = "a schema name is 1 to 63 lower-case letters, digits and underscores, not starting with a digit or pg_"

/** A schema name as configuration reads it (`PAYKIT_DB_SCHEMA`). */
export const SchemaName = Schema.String.check(Schema.makeFilter(isSchemaName, { message: SCHEMA_NAME_RULE }))

/** The name itself, or an exception saying what a schema name must be (a configuration mistake). */
export const checkSchemaName = (name: string): string => {
  if (!isSchemaName(name)) throw new Error(`Invalid schema name ${JSON.stringify(name)}: ${SCHEMA_NAME_RULE}`)
  return name
}

const schemaExists = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.map(sql<{ found: number }>`SELECT 1 AS found FROM pg_namespace WHERE nspname = ${schema}`, (rows) => rows.length > 0)

/**
 * Creates `schema` unless it exists. Looked up first, because `CREATE SCHEMA IF NOT EXISTS` needs the
 * CREATE privilege on the database even when the schema is there (a DBA may have made it for a role
 * that has none); and two processes starting at once may both try to create it, so a failed create
 * is fine when the schema exists after all.
 */
export const ensureSchema = (schema: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    if (yield* schemaExists(sql, schema)) return
    yield* sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${checkSchemaName(schema)}`).pipe(
      Effect.catch((error) => Effect.flatMap(schemaExists(sql, schema), (exists) => exists ? Effect.void : Effect.fail(error)))
    )
  })

/** `client` (whose connections search `schema`) once `schema` exists. */
export const inSchema = <A, E, R>(client: Layer.Layer<A, E, R>, schema: string): Layer.Layer<A, E | SqlError, R | Exclude<SqlClient.SqlClient, A>> =>
  Layer.effectDiscard(ensureSchema(schema)).pipe(Layer.provideMerge(client))

/**
 * A PostgreSQL pool at `url`. With a schema, every connection's `search_path` is that schema (sent at
 * connection start-up, so it outranks an `options=-c search_path=…` in the URL) and the schema is
 * created if missing; without one, the connection's own search path is kept (PostgreSQL's default,
 * `"$user", public`, unless the URL, the role or the database set another). On a Citus cluster
 * (unless `citus` or `routing` is `off`) its `SqlClient` sends an organisation's work to the node holding it
 * (`routedOnCitus`); its `PgClient` stays the pool at `url`.
 */
export const postgresClient = (
  url: Redacted.Redacted<string> | string,
  options: {
    readonly schema?: string | undefined
    readonly maxConnections?: number | undefined
    readonly citus?: CitusSetting | undefined
    readonly routing?: CitusRouting | undefined
  } = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> => {
  const base = { url: typeof url === "string" ? Redacted.make(url) : url, maxConnections: options.maxConnections ?? 10 }
  const schema = options.schema
  const startupParameters = schema === undefined ? undefined : { search_path: checkSchemaName(schema) }
  const client = routedOnCitus(PgClient.layer({ ...base, startupParameters }), { ...base, startupParameters, citus: options.citus ?? "auto", routing: options.routing })
  return schema === undefined ? client : inSchema(client, schema)
}
