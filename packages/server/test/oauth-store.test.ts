import { OrganisationId } from "@paykit/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { setTimeout as sleep } from "node:timers/promises"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { DueWorkSchedule } from "@paykit/engine"
import { makeSqlDueWorkStore, migrate, PgliteClient, postgresClient } from "@paykit/store-sql"
import { migrateServer, type OAuthApp, OAuthStore, Organisations } from "../src/index.ts"

/** The OAuth store's contract, on each adapter: in memory, PGlite, and PostgreSQL when `DATABASE_URL` is set. */

const ORG = OrganisationId("OR000000000AVT")
const OTHER = "OR000000000AV1"

const sqlStore = (client: Layer.Layer<SqlClient.SqlClient, unknown>) => {
  const database = Layer.effectDiscard(Effect.andThen(migrate(), migrateServer)).pipe(Layer.provideMerge(client))
  const schedule = Layer.effect(DueWorkSchedule, Effect.map(makeSqlDueWorkStore, (store) => DueWorkSchedule.of({ schedule: store.schedule })))
  // The apps, codes and grants name organisations and access tokens (foreign keys): made first.
  const seeded = Layer.effectDiscard(Effect.gen(function*() {
    const organisations = yield* Organisations
    yield* organisations.insert({ id: ORG, name: "One", environment: "sandbox", origin: "operator" })
    yield* organisations.insert({ id: OTHER, name: "Two", environment: "sandbox", origin: "operator" })
    const sql = yield* SqlClient.SqlClient
    for (const id of ["AT1", "AT2", "AT3"]) {
      yield* sql`INSERT INTO access_tokens (id, organisation_id, scope, token_hash, status) VALUES (${id}, ${OTHER}, 'read_write', ${id.padEnd(64, "0").toLowerCase().replace(/[^0-9a-f]/g, "0")}, 'active')`
    }
  }))
  return Layer.mergeAll(OAuthStore.layerSql, seeded).pipe(Layer.provide(Organisations.layerSql), Layer.provide(schedule), Layer.provideMerge(database))
}

const postgres = (url: string) => {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = (statement: string) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
  const scoped = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`
  return Layer.unwrap(Effect.as(Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () => Effect.orDie(admin(`DROP SCHEMA ${schema} CASCADE`))), PgClient.layer({ url: Redacted.make(scoped), maxConnections: 4 })))
}

const ADAPTERS: ReadonlyArray<readonly [string, Layer.Layer<OAuthStore, unknown>]> = [
  ["memory", OAuthStore.layerMemory],
  ["PGlite", sqlStore(PgliteClient.layer({}))],
  ...(process.env["DATABASE_URL"] === undefined ? [] : [["PostgreSQL", sqlStore(postgres(process.env["DATABASE_URL"] ?? ""))] as const])
]

const app = (id: string, clientId: string): OAuthApp => ({
  id, organisation: ORG, creditor: "CR1", name: "App", redirectUris: ["https://a.example/cb", "http://127.0.0.1/cb"], webhookUrl: null, webhookSecretSealed: null,
  clientId, clientSecretHash: "a".repeat(64), status: "enabled", paymentPagesApproved: false, createdAt: "2026-11-24T00:00:00.000Z"
})

/** An exchange's critical section: APP1's connection to OTHER locked for `millis`, its span recorded. */
const lockedExchange = (spans: Array<readonly [number, number]>, millis: number) =>
  Effect.flatMap(OAuthStore, (store) =>
    store.exclusive(Effect.gen(function*() {
      yield* store.lockConnection("APP1", OTHER)
      const start = Date.now()
      yield* Effect.promise(() => sleep(millis))
      spans.push([start, Date.now()])
    })))

describe.each(ADAPTERS)("the OAuth store, %s", (_name, layer) => {
  const runtime = ManagedRuntime.make(layer)
  afterAll(() => runtime.dispose())
  const run = <A>(effect: Effect.Effect<A, never, OAuthStore>) => runtime.runPromise(effect)

  it("keeps apps: by id, by client id, per organisation; status (by the app's machine) and approval change", async () => {
    const [byId, byClient, mine, changed, moves] = await run(Effect.gen(function*() {
      const store = yield* OAuthStore
      yield* store.insertApp(app("APP1", "client-1"))
      yield* store.insertApp(app("APP2", "client-2"))
      const disabled = yield* store.moveApp("APP2", "disable")
      // Disabling is for good: a second disabling leaves the app as it is; an unknown app is none.
      const again = yield* store.moveApp("APP2", "disable")
      const none = yield* store.moveApp("APP_none", "disable")
      yield* store.setPaymentPagesApproved("APP2", true)
      return [
        yield* store.appById("APP1"), yield* store.appByClientId("client-2"), yield* store.appsOf(ORG), yield* store.appById("APP2"),
        [disabled?.status, again?.status, none]
      ]
    }))
    expect(moves).toEqual(["disabled", "disabled", undefined])
    expect(byId).toEqual(app("APP1", "client-1"))
    expect(byClient?.id).toBe("APP2")
    expect(mine.map((a) => a.id)).toEqual(["APP1", "APP2"])
    expect(changed).toMatchObject({ status: "disabled", paymentPagesApproved: true })
    expect(await run(Effect.flatMap(OAuthStore, (s) => s.appByClientId("nobody")))).toBeUndefined()
  })

  it("a code is consumed once: the first take sees it unused, every later one used, with the token it issued", async () => {
    const code = { codeHash: "b".repeat(64), app: "APP1", organisation: OTHER, scope: "read_only" as const, redirectUri: "https://a.example/cb", email: "e@x.example", expiresAt: 1_000 }
    const [first, second, third, none] = await run(Effect.gen(function*() {
      const store = yield* OAuthStore
      yield* store.insertCode(code)
      const first = yield* store.consumeCode(code.codeHash)
      yield* store.setCodeToken(code.codeHash, "AT1")
      return [first, yield* store.consumeCode(code.codeHash), yield* store.consumeCode(code.codeHash), yield* store.consumeCode("c".repeat(64))]
    }))
    expect(first).toEqual({ code, usedBefore: false, issuedToken: null })
    expect(second).toEqual({ code, usedBefore: true, issuedToken: "AT1" })
    expect(third?.usedBefore).toBe(true)
    expect(none).toBeUndefined()
  })

  it("keeps grants by token, and per app and organisation", async () => {
    const [one, forOther, forApp] = await run(Effect.gen(function*() {
      const store = yield* OAuthStore
      yield* store.insertGrant({ tokenId: "AT2", app: "APP1", organisation: OTHER, email: "a@x.example" })
      yield* store.insertGrant({ tokenId: "AT3", app: "APP1", organisation: ORG, email: "b@x.example" })
      return [yield* store.grantOf("AT2"), yield* store.grantsOf("APP1", OTHER), yield* store.grantsOf("APP1")]
    }))
    expect(one).toEqual({ tokenId: "AT2", app: "APP1", organisation: OTHER, email: "a@x.example" })
    expect(forOther.map((g) => g.tokenId)).toEqual(["AT2"])
    expect(forApp.map((g) => g.tokenId).sort()).toEqual(["AT2", "AT3"])
  })

  it("exchanges of one app for one organisation run one at a time", async () => {
    const spans: Array<readonly [number, number]> = []
    const exchange = lockedExchange(spans, 40)
    await run(Effect.all([exchange, exchange, exchange], { concurrency: "unbounded" }))
    const sorted = [...spans].sort((a, b) => a[0] - b[0])
    expect(sorted.length).toBe(3)
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]?.[0]).toBeGreaterThanOrEqual(sorted[i - 1]?.[1] ?? Infinity)
  })
})

describe.skipIf(process.env["DATABASE_URL"] === undefined)("the OAuth store's connection lock across schemas", () => {
  it("is its schema's: a paykit in another schema of the database never waits on it", { timeout: 60_000 }, async () => {
    const url = process.env["DATABASE_URL"] ?? ""
    const schemas = [0, 1].map(() => `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`)
    const runtimes = schemas.map((schema) => ManagedRuntime.make(sqlStore(postgresClient(url, { schema, maxConnections: 4 }))))
    const spans: Array<readonly [number, number]> = []
    // The same app and organisation ids in both schemas, each lock held 300 ms.
    const exchange = lockedExchange(spans, 300)
    try {
      await Promise.all(runtimes.map((runtime) => runtime.runPromise(Effect.gen(function*() { return yield* OAuthStore }))))
      await Promise.all(runtimes.map((runtime) => runtime.runPromise(exchange)))
      const [first, second] = [...spans].sort((a, b) => a[0] - b[0])
      // Overlapping: the second took its lock while the first still held its own.
      expect(second?.[0]).toBeLessThan(first?.[1] ?? 0)
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.dispose()))
      const admin = (statement: string) =>
        Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
      for (const schema of schemas) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    }
  })
})
