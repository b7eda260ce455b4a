import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type MigrationSet, MoreMigrations } from "./citus.ts"
import { SqlStorage, STORE_MIGRATIONS } from "./sql-storage.ts"
import * as PgliteClient from "./pglite-client.ts"
import { checkSchemaName, inSchema } from "./schema.ts"

/**
 * A migrated PGlite database to start from. A new PGlite runs `initdb` (seconds: 2.6 s on an idle
 * two-core machine) and store-sql's migrations take about another second; a database loaded from
 * the data directory of one already migrated does neither. The template is made once per process
 * (and kept in `cacheDir` across processes when one is given), for what starts many in-memory
 * databases: tests, a test engine per case, the contract suite, an in-memory `createPaykitApp`.
 */

/** The version of PGlite store-sql runs (its pinned dependency): a data directory is loaded by the version that wrote it. */
const pgliteVersion = (): string => {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { dependencies?: Record<string, string> }
  return manifest.dependencies?.["@electric-sql/pglite"] ?? "unknown"
}

export interface PgliteTemplateOptions {
  /** The schema the tables are made in (created), as the storage that loads the template will search; absent, the connection's own (`public`). */
  readonly schema?: string | undefined
  /** Migrations of the app's own, run after store-sql's as `MoreMigrations` has them (the server's tables). */
  readonly more?: ReadonlyArray<MigrationSet>
  /** A directory that keeps the template across processes (made if missing); absent, it lives as long as this process. */
  readonly cacheDir?: string
}

const made = new Map<string, Promise<Uint8Array>>()

/**
 * The template's name: PGlite's version, each migration set's table and latest migration, and the
 * schema, so a template is never loaded by code that expects other tables. (A migration is never
 * changed once released; a template kept in `cacheDir` while one was edited must be removed by hand.)
 */
export const templateKey = (options: PgliteTemplateOptions = {}): string =>
  [`pglite-${pgliteVersion()}`, ...[STORE_MIGRATIONS, ...(options.more ?? [])].map((set) => `${set.table}-${set.latest}`), options.schema ?? "public"].join("-")

/** A client on `db` in the template's schema (made if missing), or on the connection's search path. */
const clientOn = (db: PGlite, schema: string | undefined) =>
  schema === undefined ? PgliteClient.layer({ instance: db }) : inSchema(PgliteClient.layer({ instance: db, searchPath: checkSchemaName(schema) }), schema)

/** What `SqlStorage` does to a new database at start-up, on `db`: store-sql's migrations and the app's, and the statistics. */
const migrateWith = (db: PGlite, options: PgliteTemplateOptions) =>
  Effect.runPromise(Effect.scoped(Layer.build(SqlStorage.pipe(
    Layer.provide(Layer.succeed(MoreMigrations, options.more ?? [])),
    Layer.provide(clientOn(db, options.schema))
  ))))

const dump = async (db: PGlite): Promise<Uint8Array> => new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer())

const build = async (options: PgliteTemplateOptions): Promise<Uint8Array> => {
  const db = await PGlite.create()
  try {
    await migrateWith(db, options)
    return await dump(db)
  } finally {
    await db.close()
  }
}

/** Read from the cache directory when it holds the template, else built and written there (atomically: a rename). */
const cached = async (options: PgliteTemplateOptions, cacheDir: string, key: string): Promise<Uint8Array> => {
  const file = join(cacheDir, `${key}.tar`)
  try {
    return new Uint8Array(readFileSync(file))
  } catch {
    const bytes = await build(options)
    mkdirSync(cacheDir, { recursive: true })
    const partial = `${file}.${process.pid}.partial`
    writeFileSync(partial, bytes)
    renameSync(partial, file)
    return bytes
  }
}

/**
 * The data directory (a tar, uncompressed) of an in-memory database migrated by store-sql, then
 * by `options.migrate`: made at the first call of the process for its key, every later call
 * answering the same bytes. Start a database from it with `PgliteClient.layer({ template })` or
 * `PgliteStorage({ template })`.
 */
export const pgliteTemplate = (options: PgliteTemplateOptions = {}): Promise<Uint8Array> => {
  const key = templateKey(options)
  const known = made.get(key)
  if (known !== undefined) return known
  const making = (options.cacheDir === undefined ? build(options) : cached(options, options.cacheDir, key)).catch((error: unknown) => {
    // A failed build is not kept: the next call tries again.
    made.delete(key)
    throw error
  })
  made.set(key, making)
  return making
}

/**
 * A fresh in-memory PGlite migrated as `options` say, for the caller to close: loaded from the
 * template once the process has one, else migrated here, its data directory becoming the template
 * (what the first database cost more is one dump). Every later one starts in the time a load takes.
 */
export const migratedPglite = async (options: PgliteTemplateOptions = {}): Promise<PGlite> => {
  const key = templateKey(options)
  const known = made.get(key) ?? (options.cacheDir === undefined ? undefined : pgliteTemplate(options))
  if (known !== undefined) return PGlite.create({ loadDataDir: new Blob([await known]) })
  const db = await PGlite.create()
  try {
    await migrateWith(db, options)
  } catch (error) {
    await db.close()
    throw error
  }
  if (!made.has(key)) {
    // Taken before the caller writes anything: the template is the migrated database only.
    const taken = dump(db)
    made.set(key, taken)
    try {
      await taken
    } catch (error) {
      made.delete(key)
      await db.close()
      throw error
    }
  }
  return db
}

/** `PgliteClient` and `SqlClient` on a `migratedPglite` of its own, closed with the layer, in the options' schema. */
export const migratedPgliteClient = (options: PgliteTemplateOptions = {}): Layer.Layer<PgliteClient.PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.unwrap(Effect.map(
    Effect.acquireRelease(Effect.promise(() => migratedPglite(options)), (db) => Effect.promise(() => db.close())),
    (db) => clientOn(db, options.schema)
  ))
