/**
 * Fresh stores for tests (`@paykit/store-sql/testing`): each build a database of its own, empty and
 * migrated, gone with the layer. What the storage contract suite (`@paykit/engine/testing`) and a
 * test engine per case want: on PGlite, one instance per process with a schema per store (booting
 * an instance takes seconds, migrating a schema a fraction of one); on PostgreSQL, a schema per
 * store on the database at `url`.
 */
import { randomUUID } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as PgliteClient from "./pglite-client.ts"
import { ProductionSqlStorage } from "./production-storage.ts"
import { checkSchemaName } from "./schema.ts"

let shared: Promise<PGlite> | undefined

/** The process's PGlite that `isolatedPgliteClient` makes its schemas in, opened at the first call. */
export const sharedPglite = (): Promise<PGlite> => (shared ??= PGlite.create())

/** A schema name no other store of the run has (`t_` and 16 hex digits). */
export const freshSchemaName = (): string => `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`

/** A client on the process's shared PGlite, in a schema of its own created for the layer and dropped with it. */
export const isolatedPgliteClient = (): Layer.Layer<PgliteClient.PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.unwrap(Effect.gen(function*() {
    const instance = yield* Effect.promise(sharedPglite)
    const schema = freshSchemaName()
    yield* Effect.acquireRelease(
      Effect.promise(() => instance.query(`CREATE SCHEMA ${schema}`)),
      () => Effect.promise(() => instance.query(`DROP SCHEMA ${schema} CASCADE`))
    )
    return PgliteClient.layer({ instance, searchPath: schema })
  }))

/**
 * A PostgreSQL client at `url` in a schema of its own, created for the layer and dropped with it;
 * `startup` adds parameters to every connection's start (a Citus test's shard count).
 */
export const isolatedPostgresClient = (url: string, startup: Readonly<Record<string, string>> = {}): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.unwrap(Effect.gen(function*() {
    const schema = freshSchemaName()
    const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    const run = (statement: string) => Effect.provideContext(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), admin)
    yield* Effect.acquireRelease(run(`CREATE SCHEMA ${schema}`), () => Effect.orDie(Effect.provideContext(dropSchema(schema), admin)))
    return PgClient.layer({ url: Redacted.make(url), startupParameters: { ...startup, search_path: schema }, maxConnections: 8 })
  }))

/**
 * Drops a test's schema and everything in it. On a Citus coordinator a drop that removes a
 * constraint then locks every Citus local table of the database, in other schemas too, to see if
 * it should leave Citus's metadata: two schemas dropped at once each held their own tables and
 * waited on the other's (a deadlock). paykit makes its coordinator tables itself, never through a
 * foreign key, so the check has nothing to do; the setting turns it off for the drop alone (on a
 * plain PostgreSQL it is an unread placeholder).
 */
export const dropSchema = (schema: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(Effect.andThen(
      sql`SELECT set_config('citus.enable_local_reference_table_foreign_keys', 'off', true)`,
      sql.unsafe(`DROP SCHEMA ${checkSchemaName(schema)} CASCADE`)
    )))

/** `ProductionSqlStorage` on a fresh schema of the process's PGlite: a fresh, empty, migrated store per build. */
export const freshPgliteStorage = () => ProductionSqlStorage.pipe(Layer.provideMerge(isolatedPgliteClient()))

/** `ProductionSqlStorage` on a fresh schema of the PostgreSQL database at `url`, dropped with the layer. */
export const freshPostgresStorage = (url: string) => ProductionSqlStorage.pipe(Layer.provideMerge(isolatedPostgresClient(url)))
