import { Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { createPaykitApp, type PaykitApp, type PaykitAppOptions, type ServerLogLine } from "../src/index.ts"
import { localClient } from "./harness.ts"
import { HOST_ROWS, type HostDatabase, pgliteDirectoryHost, postgresHost, SCHEMAS_OF_TABLES, withHostTables } from "./host-database.ts"
import { MOUNT, TOKEN } from "./mount-support.ts"

/**
 * `createPaykitApp` in a database a host already uses: its `events`, `resources` and `outbox`
 * (with rows) in `public`. Paykit migrates and runs in its schema (`paykit` by default, or the
 * one given), the official client creates and lists through the mounted app, and the host's
 * tables and rows are as they were. On PostgreSQL (a fresh database) and PGlite (a data directory).
 */

/** Where `host` is, as the app's options: PostgreSQL's URL or PGlite's directory (paykit's key given, so no key file is made). */
const storageOf = (host: HostDatabase): PaykitAppOptions => {
  const database = host.paykit(undefined).database
  const where = database._tag === "Postgres" ? { databaseUrl: Redacted.value(database.url) } : { dataDir: database.dataDir ?? "" }
  return { ...where, webhookSecretKey: "7a".repeat(32) }
}

const serve = (paykit: PaykitApp) =>
  new Promise<{ server: Server; origin: string }>((resolve) => {
    const server = createServer((req, res) => paykit.handleNode(req, res))
    server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

const mountedBeside = (name: string, open: () => Promise<HostDatabase>) =>
  describe(`createPaykitApp beside a host's tables on ${name}`, () => {
    const { host, before } = withHostTables(open)

    for (const schema of [undefined, "paykit_given"]) {
      it(`runs in schema ${schema ?? "paykit (the default)"}; the client creates and lists; the host's tables are untouched`, { timeout: 240_000 }, async () => {
        const lines: Array<ServerLogLine> = []
        const paykit = await createPaykitApp({
          ...storageOf(host()), basePath: MOUNT, sandboxToken: TOKEN, log: (line) => void lines.push(line), requestLog: () => {},
          ...(schema === undefined ? {} : { schema })
        })
        // The first start's token line goes to the host's log, as every other line.
        expect(lines.filter((line) => line["access_token"] === TOKEN)).toHaveLength(1)
        const { server, origin } = await serve(paykit)
        try {
          const client = localClient(TOKEN, `${origin}${MOUNT}`)
          const made = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" })
          const listed = await client.customers.list({})
          expect(listed.customers.map((customer) => customer.id)).toContain(made.id)
        } finally {
          await closeServer(server)
          await paykit.close()
        }
        const expected = schema ?? "paykit"
        const after = await host().run([...HOST_ROWS, SCHEMAS_OF_TABLES, `SELECT count(*)::int AS n FROM ${expected}.resources`])
        expect(after.slice(0, HOST_ROWS.length)).toEqual(before())
        expect(after[HOST_ROWS.length]).toContainEqual({ schema: expected })
        expect(after[HOST_ROWS.length]).not.toContainEqual({ schema: "public" })
        expect(Number(after[HOST_ROWS.length + 1]?.[0]?.["n"])).toBeGreaterThan(0)
      })
    }
  })

const databaseUrl = process.env["DATABASE_URL"]

mountedBeside("PGlite (data directory)", async () => pgliteDirectoryHost())
describe.skipIf(databaseUrl === undefined)("on PostgreSQL", () => {
  mountedBeside("PostgreSQL", () => postgresHost(databaseUrl ?? ""))
})
