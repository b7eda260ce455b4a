import { Context, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Statement } from "effect/sql/Statement"
import { describe, expect, it } from "vitest"
import { MoreMigrations, PgliteClient, placementsOf, postgresClient, STORE_MIGRATIONS, SqlStorage } from "@paykit/store-sql"
import { planOf } from "../../store-sql/test/support/citus-plans.ts"
import {
  ClockAdvanceLock,
  claimKeyStatement,
  clockOffsetStatement,
  hitStatement,
  OAuthStore,
  PAYKIT_DISTRIBUTION,
  SERVER_DISTRIBUTION,
  SERVER_MIGRATION_SET,
  tokenByHashStatement
} from "../src/index.ts"
import { workerUrls } from "./citus-support.ts"
import { api, CITUS_SETTINGS, CITUS_URL, json, localClient, startCitusServer, type TestServer, withSettings } from "./harness.ts"

/**
 * The server's tables on Citus (docs/storage.md, "Citus"). Everywhere: every table of a server's
 * schema is placed by `PAYKIT_DISTRIBUTION`, the one list beside the rule (a table added later that
 * is neither keyed by organisation first nor listed fails here). On a real cluster when CITUS_URL
 * names one (skipped without it): a server's fresh schema distributed as the issue lists, ten
 * organisations' rows on both workers, the request path's statements on one shard, an
 * organisation's removal, and the clock-advance and OAuth locks held across two nodes.
 */

const inSql = <A>(server: TestServer, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  server.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.orDie(f(sql))))

describe("where the server's tables live on a cluster", () => {
  it("every table of a server's schema is placed: by organisation, or as PAYKIT_DISTRIBUTION lists it", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const storage = SqlStorage.pipe(Layer.provide(Layer.succeed(MoreMigrations, [SERVER_MIGRATION_SET])), Layer.provideMerge(PgliteClient.layer({})))
      const context = yield* Layer.build(Layer.orDie(storage))
      const placed = yield* Effect.provideContext(placementsOf(PAYKIT_DISTRIBUTION), context)
      const listed = placed.filter((t) => t.placement !== "distributed").map((t) => t.table).sort()
      expect(listed).toEqual([...SERVER_DISTRIBUTION.reference, ...SERVER_DISTRIBUTION.coordinator, ...STORE_MIGRATIONS.plan.coordinator].sort())
      expect(placed.filter((t) => t.placement === "distributed").map((t) => t.table)).toEqual(expect.arrayContaining([
        "resources", "events", "transitions", "due_work", "outbox", "idempotency_keys", "rate_limit_windows", "organisation_clocks", "organisation_locks"
      ]))
    }))))
})

describe.skipIf(CITUS_URL === undefined)("a server on Citus (CITUS_URL; skipped without it)", () => {
  it("distributes a fresh schema as listed, and ten organisations' rows lie on both workers", { timeout: 180_000 }, async () => {
    const server = await startCitusServer()
    try {
      const tables = await inSql(server, (sql) =>
        sql<{ readonly name: string; readonly method: string; readonly column: string | null; readonly replicated: string }>`SELECT c.relname AS name,
            p.partmethod AS method, column_to_column_name(p.logicalrelid, p.partkey) AS column, p.repmodel AS replicated
          FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
          WHERE c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`)
      const byOrganisation = tables.filter((t) => t.method === "h")
      expect(byOrganisation.map((t) => t.name)).toEqual(expect.arrayContaining([
        "resources", "events", "transitions", "due_work", "outbox", "idempotency_keys", "rate_limit_windows", "organisation_clocks"
      ]))
      expect(new Set(byOrganisation.map((t) => t.column))).toEqual(new Set(["organisation_id"]))
      expect(tables.filter((t) => t.method === "n" && t.replicated === "t").map((t) => t.name).sort()).toEqual([...SERVER_DISTRIBUTION.reference].sort())
      expect(tables.filter((t) => t.method === "n" && t.replicated === "s").map((t) => t.name).sort()).toEqual(["paykit_migrations", "paykit_server_migrations"])

      // Ten organisations, each with a customer made through the official client.
      const organisations: Array<string> = []
      for (let i = 0; i < 10; i++) {
        const made = await json(await api(server.url, server.boot.accessToken ?? "", "/sandbox/organisations", { method: "POST", body: { organisations: { name: `Org ${i}` } } }))
        const organisation = made["organisations"] as Record<string, unknown>
        organisations.push(String(organisation["id"]))
        await localClient(String(organisation["access_token"]), server.url).customers.create({ email: `o${i}@example.com`, given_name: "Ada", family_name: "Lovelace" } as never)
      }
      const nodes = await inSql(server, (sql) =>
        sql<{ readonly node: string; readonly customers: string }>`SELECT s.nodename || ':' || s.nodeport AS node, count(*)::text AS customers
          FROM unnest(${organisations}::text[]) AS o
          JOIN citus_shards s ON s.shardid = get_shard_id_for_distribution_column('resources', o)
          GROUP BY 1 ORDER BY 1`)
      const workers = (await workerUrls(CITUS_URL ?? "")).map((url) => `${new URL(url).hostname}:${new URL(url).port}`)
      expect(nodes.map((n) => n.node).sort()).toEqual([...workers].sort())
      const stored = await inSql(server, (sql) =>
        sql<{ readonly n: string }>`SELECT count(DISTINCT organisation_id)::text AS n FROM resources WHERE resource_type = 'customers' AND organisation_id = ANY(${organisations}::text[])`)
      expect(Number(stored[0]?.n)).toBe(10)
    } finally {
      await server.close()
    }
  })

  it("the request path's statements run on one shard (EXPLAIN); an organisation's removal takes its rows from every table", { timeout: 180_000 }, async () => {
    const server = await startCitusServer()
    try {
      const token = server.boot.accessToken ?? ""
      const made = await json(await api(server.url, token, "/sandbox/organisations", { method: "POST", body: { organisations: { name: "Removed Ltd" } } }))
      const organisation = String((made["organisations"] as Record<string, unknown>)["id"])
      const theirs = String((made["organisations"] as Record<string, unknown>)["access_token"])
      await localClient(theirs, server.url).customers.create({ email: "gone@example.com", given_name: "Ada", family_name: "Lovelace" } as never)
      const plans = await inSql(server, (sql) =>
        Effect.forEach(
          Object.entries({
            token: tokenByHashStatement(sql, "0".repeat(64)),
            clock: clockOffsetStatement(sql, organisation),
            rateLimit: hitStatement(sql, organisation, "other", 0, 1000),
            idempotencyKey: claimKeyStatement(sql, organisation, "key", 0)
          }),
          ([name, statement]) => Effect.map(planOf(sql, statement as Statement<unknown>), (plan) => [name, plan.tasks] as const)
        ))
      expect(plans).toEqual([["token", 1], ["clock", 1], ["rateLimit", 1], ["idempotencyKey", 1]])

      const removed = await api(server.url, token, `/sandbox/organisations/${organisation}`, { method: "DELETE" })
      expect(removed.status).toBe(200)
      const left = await inSql(server, (sql) =>
        sql<{ readonly n: string }>`SELECT ((SELECT count(*) FROM resources WHERE organisation_id = ${organisation})
          + (SELECT count(*) FROM events WHERE organisation_id = ${organisation})
          + (SELECT count(*) FROM due_work WHERE organisation_id = ${organisation})
          + (SELECT count(*) FROM access_tokens WHERE organisation_id = ${organisation}))::text AS n`)
      expect(left[0]?.n).toBe("0")
      expect((await api(server.url, theirs, "/customers")).status).toBe(401)
    } finally {
      await server.close()
    }
  })

  it("the clock-advance lock and an OAuth connection's lock hold across processes on two nodes", { timeout: 180_000 }, async () => {
    const server = await startCitusServer()
    try {
      // The server's own client (through the coordinator), and a second one on the same schema through a worker.
      const scope = await inSql(server, (sql) => sql<{ readonly schema: string }>`SELECT current_schema() AS schema`)
      const [worker] = await workerUrls(CITUS_URL ?? "")
      const throughWorker = postgresClient(withSettings(worker ?? "", { ...CITUS_SETTINGS, search_path: scope[0]?.schema ?? "" }))
      const coordinator = Layer.succeed(SqlClient.SqlClient, await server.runtime.runPromise(SqlClient.SqlClient))
      const order: Array<string> = []
      const organisation = server.boot.organisation.id
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const hereContext = yield* Layer.build(Layer.merge(ClockAdvanceLock.layer, OAuthStore.layerSql).pipe(Layer.provide(coordinator)))
        const here = Context.get(hereContext, ClockAdvanceLock)
        const workerContext = yield* Layer.build(Layer.merge(ClockAdvanceLock.layer, OAuthStore.layerSql).pipe(Layer.provideMerge(Layer.orDie(throughWorker))))
        const there = Context.get(workerContext, ClockAdvanceLock)
        const held = (name: string) => Effect.andThen(Effect.sync(() => order.push(`${name} in`)), Effect.andThen(Effect.sleep("300 millis"), Effect.sync(() => order.push(`${name} out`))))
        const first = yield* Effect.forkChild(here.around(organisation)(held("coordinator")))
        yield* Effect.sleep("100 millis")
        yield* there.around(organisation)(held("worker"))
        yield* Fiber.join(first)
        expect(order).toEqual(["coordinator in", "coordinator out", "worker in", "worker out"])

        // The OAuth store's connection lock: one exchange of an app for an organisation at a time, across nodes.
        order.length = 0
        const oauthHere = Context.get(hereContext, OAuthStore)
        const oauthThere = Context.get(workerContext, OAuthStore)
        const exchange = (store: OAuthStore["Service"], name: string) => store.exclusive(Effect.andThen(store.lockConnection("AP1", organisation), held(name)))
        const one = yield* Effect.forkChild(exchange(oauthHere, "coordinator"))
        yield* Effect.sleep("100 millis")
        yield* exchange(oauthThere, "worker")
        yield* Fiber.join(one)
        expect(order).toEqual(["coordinator in", "coordinator out", "worker in", "worker out"])
      })))
    } finally {
      await server.close()
    }
  })
})
