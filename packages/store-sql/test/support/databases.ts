import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { freshSchemaName, isolatedPglite } from "./pglite.ts"

/**
 * The databases the storage tests run on: embedded PGlite always, PostgreSQL when DATABASE_URL is
 * set. Each `isolated()` layer is a fresh schema of its own, dropped when the layer is released.
 */
export interface Database {
  readonly name: string
  readonly isolated: () => Layer.Layer<SqlClient.SqlClient, unknown>
}

const databaseUrl = process.env["DATABASE_URL"]

const isolatedPostgres = (url: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const schema = freshSchemaName()
      const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
      const sql = (yield* Effect.provideContext(Effect.serviceOption(PgClient.PgClient), admin))
      if (sql._tag === "None") return yield* Effect.die("no admin client")
      yield* Effect.acquireRelease(
        sql.value.unsafe(`CREATE SCHEMA ${schema}`),
        () => Effect.orDie(sql.value.unsafe(`DROP SCHEMA ${schema} CASCADE`))
      )
      return PgClient.layer({ url: Redacted.make(url), startupParameters: { search_path: schema }, maxConnections: 8 })
    })
  )

export const DATABASES: ReadonlyArray<Database> = [
  { name: "PGlite", isolated: isolatedPglite },
  ...(databaseUrl === undefined ? [] : [{ name: "PostgreSQL", isolated: () => isolatedPostgres(databaseUrl) }])
]
