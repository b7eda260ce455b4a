import { afterAll, describe, expect, it } from "vitest"
import { CITUS_REFUSALS } from "@paykit/store-sql"
import { EXIT, type Io } from "../src/cli/args.ts"
import { runCli } from "../src/cli/run.ts"
import { CITUS_SETTINGS, CITUS_URL, tempDataDir } from "./harness.ts"
import { sqlAt } from "./citus-support.ts"
import { freshDatabase } from "./scale-out-support.ts"

/**
 * `paykit migrate`: the store's migrations without a server; on PGlite, and on Citus (CITUS_URL;
 * skipped without it) a single-node schema refused by a plain migrate and moved onto the workers
 * by `--distribute`.
 */

const paykit = async (argv: ReadonlyArray<string>) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env: {} }
  const code = await runCli(argv, io)
  return { code, out, err, json: () => (JSON.parse(out.join("\n")) as { readonly migrate: { readonly migrations_run: number; readonly distributed: boolean; readonly tables: ReadonlyArray<{ readonly table: string; readonly placement: string }> } }).migrate }
}

const data = tempDataDir()
afterAll(() => data.remove())

describe("paykit migrate", () => {
  it("runs every migration on a new store once, and none the second time", { timeout: 120_000 }, async () => {
    const first = await paykit(["migrate", "--data-dir", data.dir, "--json"])
    expect(first.code, first.err.join("\n")).toBe(EXIT.ok)
    expect(first.json().migrations_run).toBeGreaterThan(30)
    expect(first.json().distributed).toBe(false)
    const again = await paykit(["migrate", "--data-dir", data.dir])
    expect(again.out).toEqual(["0 migrations run"])
  })
})

describe.skipIf(CITUS_URL === undefined)("paykit migrate on Citus (CITUS_URL; skipped without it)", () => {
  it("refuses a schema migrated on one node until --distribute moves it onto the workers", { timeout: 300_000 }, async () => {
    const schema = await freshDatabase(CITUS_URL ?? "", CITUS_SETTINGS)
    try {
      const local = await paykit(["migrate", "--database-url", schema.url, "--citus", "off", "--json"])
      expect(local.code, local.err.join("\n")).toBe(EXIT.ok)
      expect(local.json().distributed).toBe(false)
      const refused = await paykit(["migrate", "--database-url", schema.url])
      expect(refused.code).toBe(EXIT.failure)
      expect(refused.err.join("\n")).toContain(CITUS_REFUSALS.local)
      const moved = await paykit(["migrate", "--database-url", schema.url, "--distribute", "--json"])
      expect(moved.code, moved.err.join("\n")).toBe(EXIT.ok)
      expect(moved.json().distributed).toBe(true)
      expect(moved.json().tables).toEqual(expect.arrayContaining([
        { table: "resources", placement: "distributed" },
        { table: "access_tokens", placement: "reference" },
        { table: "paykit_server_migrations", placement: "coordinator" }
      ]))
    } finally {
      await schema.drop()
    }
  })

  it("refuses a coordinator without workers in one line saying what to do", { timeout: 120_000 }, async () => {
    const name = `paykit_alone_${Date.now()}`
    const at = (database: string) => {
      const url = new URL(CITUS_URL ?? "")
      url.pathname = `/${database}`
      return url.toString()
    }
    await sqlAt(at("postgres"), (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
    try {
      await sqlAt(at(name), (sql) => sql.unsafe("CREATE EXTENSION citus"))
      const refused = await paykit(["migrate", "--database-url", at(name)])
      expect(refused.code).toBe(EXIT.failure)
      expect(refused.err).toHaveLength(1)
      expect(refused.err[0]).toBe(`paykit: the store was not migrated: ${CITUS_REFUSALS.noWorkers}`)
    } finally {
      await sqlAt(at("postgres"), (sql) => sql.unsafe(`DROP DATABASE ${name} WITH (FORCE)`))
    }
  })
})
