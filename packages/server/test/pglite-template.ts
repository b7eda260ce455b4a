import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { migratedPgliteClient, pgliteTemplate } from "@paykit/store-sql"
import { serverTemplateOptions } from "../src/server.ts"

/**
 * A migrated in-memory database for the server tests, made once per test run. Booting PGlite runs
 * `initdb` (about 2.6 s on a two-core machine), and the migrations take another second; a server
 * test file boots one or more servers, so a run boots dozens. The run's global setup makes
 * store-sql's template of the server's database (`pgliteTemplate`, with the server's migrations on
 * the connection's own search path, as `makeServer` migrates one) and keeps it in a directory of
 * the run; each in-memory server then starts from it (the whole server boots in about 1.1 s
 * instead of 3.8 s), and its start-up's migrations find nothing to apply. The migrations from an
 * empty database are still run by that setup, by store-sql's `migrations.test.ts`, by
 * `upgrade.test.ts` and by the tests on a data directory, which never use the template.
 */
export const TEMPLATE_ENV = "PAYKIT_TEST_PGLITE_TEMPLATE_DIR"

/** The global setup: makes the template and names its directory in the environment the test workers inherit. */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "paykit-template-"))
  await pgliteTemplate(serverTemplateOptions(undefined, dir))
  process.env[TEMPLATE_ENV] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}

/** A client on a fresh in-memory database from the run's template (read once per worker), when the run made one. */
export const fromTemplate = (): Layer.Layer<SqlClient.SqlClient, unknown> | undefined => {
  const dir = process.env[TEMPLATE_ENV]
  return dir === undefined || dir === "" ? undefined : migratedPgliteClient(serverTemplateOptions(undefined, dir))
}
