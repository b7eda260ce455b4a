import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { SqlStorage as SqlStorageLayer } from "../../src/sql-storage.ts"
import { dropSchema, freshSchemaName, isolatedPgliteClient, isolatedPostgresClient } from "../../src/testing.ts"

/**
 * The databases the storage tests run on: embedded PGlite always, PostgreSQL when DATABASE_URL is
 * set; and for the suites that run on a cluster too, Citus when CITUS_URL is set (a coordinator
 * with workers: `../shared/citus/cluster.sh --database <name>` makes one). Each `isolated()` layer
 * is a fresh schema of its own, dropped when the layer is released.
 */
export interface Database {
  readonly name: string
  readonly isolated: () => Layer.Layer<SqlClient.SqlClient, unknown>
}

const databaseUrl = process.env["DATABASE_URL"]

/**
 * On Citus each schema's tables get `CITUS_TEST_SHARDS` shards each rather than the cluster's 32: a
 * test makes a schema of some twenty tables, and every shard is a table on a worker.
 */
export const CITUS_TEST_SHARDS = 4

export const DATABASES: ReadonlyArray<Database> = [
  { name: "PGlite", isolated: isolatedPgliteClient },
  ...(databaseUrl === undefined ? [] : [{ name: "PostgreSQL", isolated: () => isolatedPostgresClient(databaseUrl) }])
]

const citusUrl = process.env["CITUS_URL"]

/** Citus, when CITUS_URL names a coordinator with workers; its test schemas are distributed by `SqlStorage`. */
export const CITUS_DATABASES: ReadonlyArray<Database> = citusUrl === undefined
  ? []
  : [{ name: "Citus", isolated: () => isolatedPostgresClient(citusUrl, { "citus.shard_count": String(CITUS_TEST_SHARDS) }) }]

/** The suites that run on a cluster too: `DATABASES`, and Citus when CITUS_URL is set. */
export const DATABASES_AND_CITUS: ReadonlyArray<Database> = [...DATABASES, ...CITUS_DATABASES]

/**
 * Citus, on which every statement must be a router statement (one organisation's, on one shard):
 * the schema is migrated and distributed first by a client of its own, then the test's client
 * starts with `citus.multi_task_query_log_level = error`, so Citus refuses any statement that would
 * run on more than one shard. The repository contract runs on it.
 */
export const CITUS_ROUTER_ONLY: ReadonlyArray<Database> = citusUrl === undefined
  ? []
  : [{
    name: "Citus, one shard a statement",
    isolated: () =>
      Layer.unwrap(Effect.gen(function*() {
        const schema = yield* freshCitusSchema(citusUrl)
        yield* Effect.scoped(Layer.build(SqlStorageLayer.pipe(Layer.provide(schema.client(citusUrl)))))
        return PgClient.layer({
          url: Redacted.make(citusUrl),
          startupParameters: { "citus.shard_count": String(CITUS_TEST_SHARDS), "citus.multi_task_query_log_level": "error", search_path: schema.name },
          maxConnections: 8
        })
      }))
  }]

/**
 * A fresh schema on the Citus database at `url` (a coordinator), dropped with the scope, and
 * clients on it through any node (`client(url)`: a worker's URL reaches the same schema).
 */
export const freshCitusSchema = (url: string) =>
  Effect.gen(function*() {
    const name = freshSchemaName()
    const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    const run = (statement: string) => Effect.provideContext(Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe(statement)), admin)
    yield* Effect.acquireRelease(run(`CREATE SCHEMA ${name}`), () => Effect.orDie(Effect.provideContext(dropSchema(name), admin)))
    return {
      name,
      client: (through: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
        PgClient.layer({ url: Redacted.make(through), startupParameters: { "citus.shard_count": String(CITUS_TEST_SHARDS), search_path: name }, maxConnections: 8 })
    }
  })
