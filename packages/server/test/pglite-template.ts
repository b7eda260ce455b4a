import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteClient, SqlStorage } from "@paykit/store-sql"
import { migrateServer } from "../src/index.ts"

/**
 * A migrated in-memory database for the server tests, made once per test run. Booting PGlite runs
 * `initdb` (about 2.6 s on a two-core machine), and the migrations take another second; a server
 * test file boots one or more servers, so a run boots dozens. The run's global setup migrates
 * one database as `makeServer` does (store-sql's tables, then the server's, on the connection's own
 * search path) and writes its data directory as a tarball; each in-memory server then starts from
 * it (the whole server boots in about 1.1 s instead of 3.8 s), and its start-up's migrations find
 * nothing to apply. The migrations from an empty database are still run by that setup, by
 * store-sql's `migrations.test.ts`, by `upgrade.test.ts` and by the tests on a data directory,
 * which never use the template.
 */
export const TEMPLATE_ENV = "PAYKIT_TEST_PGLITE_TEMPLATE"

/** The global setup: writes the template and names it in the environment the test workers inherit. */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "paykit-template-"))
  const db = await PGlite.create()
  const migrated = Layer.effectDiscard(migrateServer).pipe(
    Layer.provideMerge(SqlStorage),
    Layer.provideMerge(PgliteClient.layer({ instance: db }))
  )
  await Effect.runPromise(Effect.scoped(Layer.build(migrated)))
  const file = join(dir, "migrated.tar")
  writeFileSync(file, new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer()))
  await db.close()
  process.env[TEMPLATE_ENV] = file
  return () => rmSync(dir, { recursive: true, force: true })
}

/** The template's bytes, read once per test worker: a test file boots several servers from it. */
let templateBytes: Uint8Array | undefined

/** A fresh in-memory PGlite holding the migrated template, when the run made one. */
export const fromTemplate = async (): Promise<PGlite | undefined> => {
  const file = process.env[TEMPLATE_ENV]
  if (file === undefined || file === "") return undefined
  templateBytes ??= new Uint8Array(readFileSync(file))
  return PGlite.create({ loadDataDir: new Blob([templateBytes]) })
}
