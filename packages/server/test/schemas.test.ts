import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DueItem, dueDone, type DueWorkDeclarations, DueWorkSchedule } from "@paykit/engine"
import { serverUrl } from "@paykit/http"
import { PgliteClient, pgliteInSchema } from "@paykit/store-sql"
import { Bootstrap, makeServer, Organisations, schemaMoveStatements, type ServerOptions, type ServerLogLine } from "../src/index.ts"
import { api, localClient, testConfig, testLogs } from "./harness.ts"
import { HOST_ROWS, type HostDatabase, pgliteDirectoryHost, postgresHost, runOn, SCHEMAS_OF_TABLES, withHostTables } from "./host-database.ts"

/**
 * paykit in a schema of its own: in a database whose `public` already holds a host's `events`,
 * `resources` and `outbox` (with rows), it migrates and runs in schema `paykit` and leaves the
 * host's tables as they were; two paykits in two schemas of one database share nothing (tokens,
 * organisations, data, due work). On PostgreSQL (a fresh database) and PGlite (a data directory,
 * and one in-memory instance for two servers at once).
 */

const ran = new Map<string, Array<string>>()
/** A `probe` kind recording, under `owner`, the keys it runs. */
const probe = (owner: string): DueWorkDeclarations => ({
  pumps: [],
  kinds: [{
    kind: "probe",
    run: (item: DueItem) => Effect.sync(() => {
      ran.set(owner, [...(ran.get(owner) ?? []), item.key])
      return dueDone
    })
  }]
})

/** The webhook secret key every paykit of these tests starts with (32 bytes, hex). */
const SECRET_KEY = "5c".repeat(32)

const startPaykit = async (host: HostDatabase, schema: string | undefined, options: ServerOptions = {}) => {
  const lines: Array<ServerLogLine> = []
  const chosen = host.paykit(schema)
  const runtime = ManagedRuntime.make(
    // One key for every start on a database: a restart with another is refused (the key check).
    makeServer({ ...testConfig({ secretKey: SECRET_KEY }), database: chosen.database }, { ...chosen.options, ...options }).pipe(Layer.provide(testLogs(lines)))
  )
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  return { runtime, url, boot, lines, close: () => runtime.dispose() }
}

type Paykit = Awaited<ReturnType<typeof startPaykit>>

/** A customer, bank account, mandate and payment through the official client, then the events listed. */
const journey = async (paykit: Paykit, token: string) => {
  const client = localClient(token, paykit.url)
  const customer = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)
  const account = await client.customerBankAccounts.create({
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  } as never)
  const mandate = await client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account.id, creditor: paykit.boot.creditor } } as never)
  const payment = await client.payments.create({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } } as never)
  const events = await client.events.list({} as never)
  return { customer: customer.id ?? "", payment: payment.id ?? "", eventTypes: new Set(events.events.map((event) => event.resource_type)) }
}

const until = async (condition: () => boolean, millis: number) => {
  const end = Date.now() + millis
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50))
}

/**
 * One in-memory PGlite that two servers share at once, each through its own client in its own
 * schema. The host's statements go through a client too, which waits for the servers' transactions.
 */
const pgliteMemoryHost = async (): Promise<HostDatabase> => {
  const owner = ManagedRuntime.make(PgliteClient.layer({}))
  const instance = await owner.runPromise(Effect.gen(function*() { return (yield* PgliteClient.PgliteClient).pglite }))
  return {
    run: runOn(PgliteClient.layer({ instance })),
    paykit: (schema) => ({ database: { _tag: "Pglite", dataDir: undefined, schema }, options: { sqlClient: schema === undefined ? PgliteClient.layer({ instance }) : pgliteInSchema({ instance }, schema) } }),
    close: () => owner.dispose()
  }
}

const databaseUrl = process.env["DATABASE_URL"]

/** (a): a host's tables in `public`, paykit in `paykit`; run one server at a time. */
const beside = (name: string, open: () => Promise<HostDatabase>) =>
  describe(`paykit beside a host's tables on ${name}`, () => {
    const { host, before } = withHostTables(open)

    it("migrates and runs in schema paykit, the host's events, resources and outbox untouched; a restart finds its data", { timeout: 240_000 }, async () => {
      const first = await startPaykit(host(), "paykit")
      const token = first.boot.accessToken ?? ""
      const done = await journey(first, token).finally(() => first.close())
      expect([...done.eventTypes]).toEqual(expect.arrayContaining(["mandates", "payments"]))

      const after = await host().run([...HOST_ROWS, SCHEMAS_OF_TABLES, "SELECT count(*)::int AS n FROM paykit.events"])
      expect(after.slice(0, HOST_ROWS.length)).toEqual(before())
      expect(after[HOST_ROWS.length]).toEqual([{ schema: "paykit" }])
      expect(Number(after[HOST_ROWS.length + 1]?.[0]?.["n"])).toBeGreaterThan(0)

      const again = await startPaykit(host(), "paykit")
      try {
        const found = await localClient(token, again.url).payments.find(done.payment)
        expect(found.id).toBe(done.payment)
      } finally {
        await again.close()
      }
    })
  })

/** (b): two paykits in two schemas of one database, at once. */
const sideBySide = (name: string, open: () => Promise<HostDatabase>) =>
  describe(`two paykits in two schemas of one ${name} database`, () => {
    let host: HostDatabase
    let a: Paykit
    let b: Paykit
    beforeAll(async () => {
      host = await open()
      a = await startPaykit(host, "paykit_a", { dueWork: [probe(`${name}/a`)], worker: { pollMillis: 50 } })
      b = await startPaykit(host, "paykit_b", { dueWork: [probe(`${name}/b`)], worker: { pollMillis: 50 } })
    }, 120_000)
    afterAll(async () => {
      await a?.close()
      await b?.close()
      await host?.close()
    })

    it("know nothing of each other's organisation, token or resources", { timeout: 60_000 }, async () => {
      const tokenA = a.boot.accessToken ?? ""
      const tokenB = b.boot.accessToken ?? ""
      const customer = (await journey(a, tokenA)).customer
      expect((await api(b.url, tokenA, "/customers")).status).toBe(401)
      expect((await api(a.url, tokenB, "/customers")).status).toBe(401)
      expect((await api(b.url, tokenB, `/customers/${customer}`)).status).toBe(404)
      expect((await api(a.url, tokenA, `/customers/${customer}`)).status).toBe(200)
      const organisationsOf = (paykit: Paykit) =>
        paykit.runtime.runPromise(Effect.gen(function*() { return (yield* (yield* Organisations).all).map((o) => o.id) }))
      expect(await organisationsOf(a)).toEqual([a.boot.organisation.id])
      expect(await organisationsOf(b)).toEqual([b.boot.organisation.id])
      expect(await host.run([SCHEMAS_OF_TABLES])).toEqual([[{ schema: "paykit_a" }, { schema: "paykit_b" }]])
    })

    it("run only their own due work", { timeout: 30_000 }, async () => {
      const schedule = (paykit: Paykit, keys: ReadonlyArray<string>) =>
        paykit.runtime.runPromise(Effect.gen(function*() {
          const due = yield* DueWorkSchedule
          for (const key of keys) yield* due.schedule({ organisation: paykit.boot.organisation.id, kind: "probe", key, dueAt: Date.now() - 1_000 })
        }))
      await schedule(a, ["a1", "a2"])
      await schedule(b, ["b1"])
      const keys = (owner: string) => [...(ran.get(`${name}/${owner}`) ?? [])].sort()
      await until(() => keys("a").length >= 2 && keys("b").length >= 1, 10_000)
      // Time for a worker to take what is not its own, were it able to.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(keys("a")).toEqual(["a1", "a2"])
      expect(keys("b")).toEqual(["b1"])
    })
  })

/** An installation from before schemas: a server in `public`, then moved into `paykit`. */
const moved = (name: string, open: () => Promise<HostDatabase>) =>
  describe(`a server in public on ${name}`, () => {
    it("keeps working without a schema; schemaMoveStatements moves all of it into paykit, where a server finds its data and token", { timeout: 300_000 }, async () => {
      const host = await open()
      try {
        const before = await startPaykit(host, undefined)
        const token = before.boot.accessToken ?? ""
        const done = await journey(before, token).finally(() => before.close())
        const unchanged = await startPaykit(host, undefined)
        await localClient(token, unchanged.url).payments.find(done.payment).finally(() => unchanged.close())

        const left = await host.run([
          "BEGIN",
          ...schemaMoveStatements("paykit"),
          "COMMIT",
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
          SCHEMAS_OF_TABLES
        ])
        expect(left.at(-2)).toEqual([])
        expect(left.at(-1)).toEqual([{ schema: "paykit" }])

        const after = await startPaykit(host, "paykit")
        try {
          expect((await localClient(token, after.url).payments.find(done.payment)).id).toBe(done.payment)
          expect(after.boot.accessToken).toBeUndefined()
        } finally {
          await after.close()
        }
      } finally {
        await host.close()
      }
    })
  })

beside("PGlite (data directory)", async () => pgliteDirectoryHost())
moved("PGlite (data directory)", async () => pgliteDirectoryHost())
sideBySide("PGlite (in memory)", pgliteMemoryHost)
describe.skipIf(databaseUrl === undefined)("on PostgreSQL", () => {
  beside("PostgreSQL", () => postgresHost(databaseUrl ?? ""))
  sideBySide("PostgreSQL", () => postgresHost(databaseUrl ?? ""))
  moved("PostgreSQL", () => postgresHost(databaseUrl ?? ""))
})
