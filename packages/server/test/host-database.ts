import { PgClient } from "@effect/sql-pg"
import { Effect, type Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll } from "vitest"
import { PgliteClient } from "@paykit/store-sql"
import type { Database, ServerOptions } from "../src/index.ts"
import { tempDataDir } from "./harness.ts"

/**
 * A database a test owns, where a host app already keeps tables named as paykit's (`events`,
 * `resources`, `outbox`, with rows, in `public`): a fresh PostgreSQL database, or a PGlite data
 * directory. What `schemas.test.ts` and `mount-schema.test.ts` put paykit beside.
 */

export type Rows = ReadonlyArray<Record<string, unknown>>

/** A database the test owns: SQL run as its host app (on `public`), and paykit's `Database` in a schema. */
export interface HostDatabase {
  /** The statements' rows, in order (a PGlite data directory is opened once for them). */
  readonly run: (statements: ReadonlyArray<string>) => Promise<ReadonlyArray<Rows>>
  /** Without a schema: the connection's own search path, as a server without `PAYKIT_DB_SCHEMA`. */
  readonly paykit: (schema: string | undefined) => { readonly database: Database; readonly options?: ServerOptions }
  readonly close: () => Promise<void>
}

export const HOST_TABLES = [
  "CREATE TABLE public.events (id text PRIMARY KEY, name text NOT NULL)",
  "CREATE TABLE public.resources (id text PRIMARY KEY, body jsonb NOT NULL)",
  "CREATE TABLE public.outbox (seq serial PRIMARY KEY, topic text NOT NULL)",
  "INSERT INTO public.events VALUES ('signup-1', 'signed up'), ('login-1', 'logged in')",
  "INSERT INTO public.resources VALUES ('doc-1', '{\"title\": \"Terms\"}')",
  "INSERT INTO public.outbox (topic) VALUES ('welcome'), ('digest')"
]

export const HOST_ROWS = [
  "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  "SELECT * FROM public.events ORDER BY id",
  "SELECT * FROM public.resources ORDER BY id",
  "SELECT * FROM public.outbox ORDER BY seq"
]

/** Where the tables paykit's two migrators make are, by schema. */
export const SCHEMAS_OF_TABLES = `SELECT DISTINCT table_schema AS schema FROM information_schema.tables
    WHERE table_name IN ('paykit_migrations', 'paykit_server_migrations', 'organisations', 'access_tokens', 'due_work', 'idempotency_keys')
    ORDER BY 1`

/** The statements' rows in order, on the client `layer` gives. */
export const runOn = (layer: Layer.Layer<SqlClient.SqlClient, unknown>) => (statements: ReadonlyArray<string>): Promise<ReadonlyArray<Rows>> =>
  Effect.runPromise(Effect.provide(
    Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe<Record<string, unknown>>(statement))),
    layer
  ))

export const postgresHost = async (base: string): Promise<HostDatabase> => {
  const name = `paykit_host_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const onUrl = (url: string) => runOn(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
  await onUrl(base)([`CREATE DATABASE ${name}`])
  const url = new URL(base)
  url.pathname = `/${name}`
  const own = url.toString()
  return {
    run: onUrl(own),
    paykit: (schema) => ({ database: { _tag: "Postgres", url: Redacted.make(own), schema } }),
    close: async () => void await onUrl(base)([`DROP DATABASE ${name} WITH (FORCE)`])
  }
}

/** A PGlite data directory: the host's statements open it between the servers' runs (one opener at a time). */
export const pgliteDirectoryHost = (): HostDatabase => {
  const { dir, remove } = tempDataDir()
  return {
    run: runOn(PgliteClient.layer({ dataDir: dir })),
    paykit: (schema) => ({ database: { _tag: "Pglite", dataDir: dir, schema } }),
    close: async () => remove()
  }
}

/**
 * A host database for a `describe`: opened and given the host's tables and rows before its tests,
 * closed after them; `before` is the host's rows as they were (`HOST_ROWS`'s answers).
 */
export const withHostTables = (open: () => Promise<HostDatabase>) => {
  let host: HostDatabase | undefined
  let before: ReadonlyArray<Rows> = []
  beforeAll(async () => {
    host = await open()
    before = (await host.run([...HOST_TABLES, ...HOST_ROWS])).slice(HOST_TABLES.length)
  }, 120_000)
  afterAll(() => host?.close())
  return {
    host: (): HostDatabase => {
      if (host === undefined) throw new Error("the host database is opened before the tests")
      return host
    },
    before: () => before
  }
}
