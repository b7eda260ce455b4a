import { PgClient } from "@effect/sql-pg"
import { Cause, Clock, Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { Statement } from "effect/sql/Statement"
import { type DueItem, dueDone, DueWorker, type DueWorkDeclarations, DueWorkStore, EventLog, RepositoryBackend, Transactor } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import {
  CITUS_REFUSALS,
  CitusRefused,
  CitusSetting,
  type CitusNode,
  migrateOn,
  placementOf,
  placementsOf,
  STORE_DISTRIBUTION,
  startPlan,
  TESTED_CITUS_VERSIONS,
  UnplacedTable
} from "../src/citus.ts"
import { claimRowStatement, dueCandidatesStatement } from "../src/due-work.ts"
import { batchStatement, oldestWaitingStatement, orphansStatement, removeStatement, waitingStatement } from "../src/outbox.ts"
import { ORGANISATIONS_DISTRIBUTED, SqlStorage, STORE_MIGRATIONS } from "../src/sql-storage.ts"
import { heldUpdatesStatement } from "../src/unit-of-work.ts"
import { migrate } from "../src/migrations/index.ts"
import { planOf } from "./support/citus-plans.ts"
import { CITUS_DATABASES, CITUS_TEST_SHARDS, freshCitusSchema } from "./support/databases.ts"
import { isolatedPglite } from "./support/pglite.ts"

/**
 * paykit on Citus (docs/storage.md, "Citus"). Everywhere: the rule that places each table, and the
 * start's decision on every kind of node. On a real cluster when CITUS_URL names a coordinator with
 * workers (`../shared/citus/cluster.sh --database <name>`; skipped without it): a fresh schema's
 * tables distributed by organisation and co-located, ten organisations' rows on both workers, the
 * hot statements' plans (one shard, or every shard without a lock), two claimers through two nodes
 * sharing due rows once, and the refusals.
 */

const citusUrl = process.env["CITUS_URL"]
const CITUS: CitusNode = { _tag: "Citus", version: "13.2-1", coordinator: true, workers: 2 }
const FRESH = { distributed: false, migratedBefore: false, migratedFully: false }

describe("where each table lives on a cluster", () => {
  it("a table keyed by organisation_id first is distributed; a listed one is placed as listed; any other is refused by name", () => {
    const plan = { reference: ["organisations"], coordinator: ["paykit_migrations"], singleNodeTriggers: [] }
    expect(placementOf(plan, "resources", "organisation_id")).toBe("distributed")
    expect(placementOf(plan, "organisations", "id")).toBe("reference")
    expect(placementOf(plan, "paykit_migrations", "migration_id")).toBe("coordinator")
    const refused = placementOf(plan, "bank_files", "id")
    expect(refused).toBeInstanceOf(UnplacedTable)
    expect(refused instanceof UnplacedTable ? refused.message : "").toContain("bank_files")
    expect(placementOf(plan, "keyless", null)).toBeInstanceOf(UnplacedTable)
  })

  it("every table store-sql's migrations make is placed: distributed by organisation, but the migrator's bookkeeping on the coordinator", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const context = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provideMerge(isolatedPglite()))))
      const placed = yield* Effect.provideContext(placementsOf(STORE_DISTRIBUTION), context)
      expect(placed.filter((t) => t.placement !== "distributed").map((t) => [t.table, t.placement])).toEqual([["paykit_migrations", "coordinator"]])
      expect(placed.map((t) => t.table)).toEqual(expect.arrayContaining(["resources", "events", "transitions", "outbox", "due_work", "organisation_clocks", "idempotency_keys", "request_log"]))
    }))))

  it("a start: local off Citus and with PAYKIT_CITUS=off; distributed on a coordinator with workers; the refusals say what to do", () => {
    expect(startPlan({ _tag: "None" }, "auto", FRESH)).toEqual({ _tag: "Local" })
    expect(startPlan(CITUS, "off", FRESH)).toEqual({ _tag: "Local" })
    expect(startPlan(CITUS, "off", { ...FRESH, distributed: true })).toEqual({ _tag: "Refuse", message: CITUS_REFUSALS.off })
    expect(startPlan(CITUS, "auto", FRESH)).toEqual({ _tag: "Distribute" })
    expect(startPlan(CITUS, "auto", { distributed: true, migratedBefore: true, migratedFully: false })).toEqual({ _tag: "Distribute" })
    // A version paykit was not tested with, whatever else holds.
    expect(startPlan({ ...CITUS, version: "12.1-1" }, "auto", FRESH)).toEqual({ _tag: "Refuse", message: CITUS_REFUSALS.version("12.1-1") })
    expect(TESTED_CITUS_VERSIONS).toContain("13.2")
    expect(startPlan({ ...CITUS, workers: 0 }, "auto", FRESH)).toEqual({ _tag: "Refuse", message: CITUS_REFUSALS.noWorkers })
    // An existing single-node database moves only when asked (paykit migrate --distribute).
    const local = { distributed: false, migratedBefore: true, migratedFully: true }
    expect(startPlan(CITUS, "auto", local)).toEqual({ _tag: "Refuse", message: CITUS_REFUSALS.local })
    expect(startPlan(CITUS, "auto", local, { distributeExisting: true })).toEqual({ _tag: "Distribute" })
    // A worker leaves the schema to the coordinator.
    const worker = { ...CITUS, coordinator: false }
    expect(startPlan(worker, "auto", { distributed: true, migratedBefore: true, migratedFully: true })).toEqual({ _tag: "OnWorker" })
    expect(startPlan(worker, "auto", { distributed: true, migratedBefore: true, migratedFully: false })).toEqual({ _tag: "Refuse", message: CITUS_REFUSALS.worker })
    expect(startPlan(worker, "auto", FRESH)).toEqual({ _tag: "Refuse", message: CITUS_REFUSALS.worker })
    for (const message of Object.values(CITUS_REFUSALS)) expect(typeof message === "string" ? message : message("x")).toMatch(/: /)
  })
})

/** A fresh schema on the cluster, distributed by `SqlStorage`, and a client on it through `url` (another node, say). */
const onCluster = <A>(f: (schema: { readonly context: Context.Context<SqlClient.SqlClient | DueWorkStore | Transactor | RepositoryBackend | EventLog>; readonly through: (url: string) => Layer.Layer<SqlClient.SqlClient, unknown>; readonly name: string }) => Effect.Effect<A, unknown, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fresh = yield* freshCitusSchema(citusUrl ?? "")
    const context = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provideMerge(fresh.client(citusUrl ?? "")))))
    return yield* f({ context, through: fresh.client, name: fresh.name })
  })))

/** The URL of the cluster's first worker, on the same database. */
const workerUrl = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ readonly nodename: string; readonly nodeport: number }>`SELECT nodename, nodeport FROM pg_dist_node WHERE groupid > 0 AND noderole = 'primary' ORDER BY nodeid LIMIT 1`,
    ([node]) => {
      const url = new URL(citusUrl ?? "")
      url.hostname = node?.nodename ?? url.hostname
      url.port = String(node?.nodeport ?? url.port)
      return url.toString()
    }
  )

describe.skipIf(citusUrl === undefined)("on Citus (CITUS_URL; skipped without it)", () => {
  it("a fresh schema is distributed by organisation_id in one co-location group, the bookkeeping kept on the coordinator, every trigger function searching the schema; a second start changes nothing", { timeout: 120_000 }, () =>
    onCluster(({ context, name }) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      const rows = yield* sql<{ readonly name: string; readonly method: string; readonly column: string | null; readonly colocation: number }>`SELECT
          c.relname AS name, p.partmethod AS method, column_to_column_name(p.logicalrelid, p.partkey) AS column, p.colocationid AS colocation
        FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
        WHERE c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`
      const distributed = rows.filter((r) => r.method === "h")
      expect(distributed.map((r) => r.name)).toEqual(["due_work", "events", "idempotency_keys", "organisation_clocks", "outbox", "request_log", "resources", "transitions"])
      expect(new Set(distributed.map((r) => r.column))).toEqual(new Set(["organisation_id"]))
      expect(new Set(distributed.map((r) => r.colocation)).size).toBe(1)
      expect(rows.filter((r) => r.method !== "h").map((r) => r.name)).toEqual(["paykit_migrations"])
      const shards = yield* sql<{ readonly n: string }>`SELECT count(*)::text AS n FROM pg_dist_shard WHERE logicalrelid = 'resources'::regclass`
      expect(Number(shards[0]?.n)).toBe(CITUS_TEST_SHARDS)
      const unpinned = yield* sql<{ readonly proname: string }>`SELECT proname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = current_schema()::regnamespace AND l.lanname = 'plpgsql' AND NOT (coalesce(p.proconfig, '{}') @> ARRAY[${`search_path=${name}`}])`
      expect(unpinned).toEqual([])
      // A second start on the distributed schema migrates and distributes nothing.
      yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provide(Layer.succeedContext(context)))))
      expect((yield* sql`SELECT 1 FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid WHERE c.relnamespace = current_schema()::regnamespace`).length).toBe(rows.length)
    })))

  it("ten organisations' rows lie on both workers, each organisation's rows of every table on one", { timeout: 120_000 }, () =>
    onCluster(({ context }) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      const store = Context.get(context, DueWorkStore)
      const organisations = Array.from({ length: 10 }, (_, i) => `OR_ten_${i}`)
      for (const organisation of organisations) {
        yield* sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
          VALUES (${organisation}, 'customers', 'CU1', 1, now(), '{}'::jsonb, '{}'::json)`
        yield* store.schedule({ organisation, kind: "probe", key: "k", dueAt: 0 })
      }
      const placed = yield* sql<{ readonly organisation: string; readonly resources: string; readonly due: string }>`SELECT o AS organisation,
          (SELECT nodename || ':' || nodeport FROM citus_shards WHERE shardid = get_shard_id_for_distribution_column('resources', o)) AS resources,
          (SELECT nodename || ':' || nodeport FROM citus_shards WHERE shardid = get_shard_id_for_distribution_column('due_work', o)) AS due
        FROM unnest(${organisations}::text[]) AS o`
      const workers = yield* sql<{ readonly node: string }>`SELECT nodename || ':' || nodeport AS node FROM pg_dist_node WHERE groupid > 0 AND noderole = 'primary'`
      expect(new Set(placed.map((p) => p.resources))).toEqual(new Set(workers.map((w) => w.node)))
      for (const p of placed) expect(p.due).toBe(p.resources)
    })))

  it("the hot statements: one organisation's run on one shard, the reads across organisations on every shard without a lock (EXPLAIN)", { timeout: 120_000 }, () =>
    onCluster(({ context }) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      const lease = { owner: "plan", realNow: 1_000, until: 2_000 }
      const router = {
        claimRow: claimRowStatement(sql, { organisation_id: "OR00000000000P", kind: "daily_run", key: "2026-01-01" }, lease),
        batch: batchStatement(sql, 100, "OR00000000000P"),
        oldestOfOne: oldestWaitingStatement(sql, "OR00000000000P"),
        orphans: orphansStatement(sql, "OR00000000000P"),
        removal: removeStatement(sql, "OR00000000000P", [7, 3, 11]),
        heldUpdates: heldUpdatesStatement(sql, "resources", "OR00000000000P", [
          { table: "resources", resourceType: "customers", organisation: "OR00000000000P", id: "CU1", from: 1, to: 2, filters: "{}", data: "{}" },
          { table: "resources", resourceType: "mandates", organisation: "OR00000000000P", id: "MD1", from: 3, to: 4, filters: "{}", data: "{}" }
        ])
      }
      for (const [name, statement] of Object.entries(router)) {
        expect([name, yield* planOf(sql, statement as Statement<unknown>)]).toEqual([name, expect.objectContaining({ tasks: 1 })])
      }
      const acrossShards = {
        candidates: dueCandidatesStatement(sql, 1_000, 17),
        waiting: waitingStatement(sql),
        organisations: sql.unsafe(ORGANISATIONS_DISTRIBUTED)
      }
      for (const [name, statement] of Object.entries(acrossShards)) {
        expect([name, yield* planOf(sql, statement as Statement<unknown>)]).toEqual([name, { tasks: CITUS_TEST_SHARDS, locksRows: false }])
      }
    })))

  it("two claimers, one through the coordinator and one through a worker, run every due row once", { timeout: 180_000 }, () =>
    onCluster(({ context, through }) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      const store = Context.get(context, DueWorkStore)
      const now = yield* Clock.currentTimeMillis
      const keys = Array.from({ length: 40 }, (_, i) => ({ organisation: `OR_two_${i % 8}`, key: `k${i}` }))
      for (const row of keys) yield* store.schedule({ organisation: row.organisation, kind: "probe", key: row.key, dueAt: now - 1_000 })
      const onWorker = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provideMerge(through(yield* workerUrl(sql))))))
      const ran: Array<string> = []
      const declarations: DueWorkDeclarations = {
        pumps: [],
        kinds: [{ kind: "probe", run: (item: DueItem) => Effect.as(Effect.andThen(Effect.sync(() => void ran.push(`${item.organisation}/${item.key}`)), Effect.yieldNow), dueDone) }]
      }
      const workerOf = (storage: Context.Context<DueWorkStore | Transactor>, owner: string) =>
        Effect.map(Layer.build(DueWorker.layer([declarations], { owner }).pipe(Layer.provide(Layer.succeedContext(storage)))), (c) => Context.get(c, DueWorker))
      const workers = [yield* workerOf(context, "coordinator"), yield* workerOf(onWorker, "worker")]
      yield* Effect.forEach(workers, (worker) => worker.runDue, { concurrency: "unbounded" })
      expect([...ran].sort()).toEqual(keys.map((row) => `${row.organisation}/${row.key}`).sort())
    })))

  it("refuses PAYKIT_CITUS=off on a distributed schema; moves a schema of local tables with history only when asked, its rows kept", { timeout: 180_000 }, () =>
    onCluster(({ context }) => Effect.gen(function*() {
      const refusal = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : "started"
      const off = yield* Effect.exit(Layer.build(SqlStorage.pipe(Layer.provide(Layer.succeedContext(context)), Layer.provide(Layer.succeed(CitusSetting, "off")))))
      expect(refusal(off)).toContain(CITUS_REFUSALS.off)
      // Another schema, migrated as on one node (PAYKIT_CITUS=off), holding an organisation's rows.
      const local = yield* freshCitusSchema(citusUrl ?? "")
      const kept = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provideMerge(local.client(citusUrl ?? "")), Layer.provide(Layer.succeed(CitusSetting, "off")))))
      const sql = Context.get(kept, SqlClient.SqlClient)
      expect(yield* sql`SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'due_work'::regclass`).toEqual([])
      yield* Context.get(kept, DueWorkStore).schedule({ organisation: "OR0000000M0VED", kind: "probe", key: "k", dueAt: 0 })
      yield* sql`INSERT INTO events (organisation_id, id, version, created_at, filters, data) VALUES ('OR0000000M0VED', 'EV1', 1, now(), '{}', '{}')`
      expect(refusal(yield* Effect.exit(Layer.build(SqlStorage.pipe(Layer.provide(Layer.succeedContext(kept))))))).toContain(CITUS_REFUSALS.local)
      // `paykit migrate --distribute`'s move.
      yield* Effect.provideContext(migrateOn([STORE_MIGRATIONS], { distributeExisting: true }), kept)
      expect((yield* sql<{ readonly organisation_id: string }>`SELECT organisation_id FROM due_work`).map((r) => r.organisation_id)).toEqual(["OR0000000M0VED"])
      // The event moved with its one queued row: its trigger did not queue it again as it was copied.
      expect((yield* sql<{ readonly event_id: string }>`SELECT event_id FROM outbox`).map((r) => r.event_id)).toEqual(["EV1"])
      // The triggers work on the moved tables: a new event is queued, on its worker.
      yield* sql`INSERT INTO events (organisation_id, id, version, created_at, filters, data) VALUES ('OR0000000M0VED', 'EV2', 1, now(), '{}', '{}')`
      expect((yield* sql<{ readonly event_id: string }>`SELECT event_id FROM outbox ORDER BY seq`).map((r) => r.event_id)).toEqual(["EV1", "EV2"])
      expect((yield* sql`SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'due_work'::regclass AND partmethod = 'h'`).length).toBe(1)
    })))

  it("a schema distributed before the outbox's statement trigger takes it: its events are queued by it, on the workers", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const schema = yield* freshCitusSchema(citusUrl ?? "")
      const context = yield* Layer.build(schema.client(citusUrl ?? ""))
      const sql = Context.get(context, SqlClient.SqlClient)
      const insertEvents = (ids: ReadonlyArray<string>) =>
        sql`INSERT INTO events (organisation_id, id, version, created_at, filters, data) VALUES ${sql.csv(ids.map((id) => sql`('OR0000000UPGRD', ${id}, 1, now(), '{}', '{}')`))}`
      yield* Effect.provideContext(migrateOn([{ ...STORE_MIGRATIONS, run: migrate(75), latest: 75 }]), context)
      yield* insertEvents(["EV1"])
      yield* Effect.provideContext(migrateOn([STORE_MIGRATIONS]), context)
      yield* insertEvents(["EV3", "EV2"])
      expect((yield* sql<{ readonly event_id: string }>`SELECT event_id FROM outbox ORDER BY seq`).map((r) => r.event_id)).toEqual(["EV1", "EV3", "EV2"])
      const triggers = yield* sql<{ readonly row: boolean }>`SELECT (tgtype & 1) = 1 AS row FROM pg_trigger WHERE tgrelid = 'events'::regclass AND tgname = 'events_outbox'`
      expect(triggers).toEqual([{ row: false }])
    }))))

  it("migrated schemas dropped at one moment all go: no drop waits on another schema's coordinator tables", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.gen(function*() {
      const citus = CITUS_DATABASES[0]
      if (citus === undefined) return expect.fail("CITUS_URL is set, so Citus is a test database")
      for (let round = 0; round < 3; round++) {
        const scopes = yield* Effect.forEach([1, 2, 3], () => Scope.make())
        yield* Effect.forEach(scopes, (scope) => Layer.buildWithScope(Layer.orDie(SqlStorage.pipe(Layer.provideMerge(citus.isolated()))), scope), { concurrency: "unbounded" })
        const drops = yield* Effect.forEach(scopes, (scope) => Effect.exit(Scope.close(scope, Exit.void)), { concurrency: "unbounded" })
        expect(drops.filter(Exit.isFailure).map((exit) => Cause.pretty(exit.cause))).toEqual([])
      }
    })))

  it("refuses a coordinator without workers, saying what to do", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const database = `paykit_alone_${Date.now()}`
      const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(citusUrl ?? ""), maxConnections: 1 }))
      const run = (statement: string) => Effect.provideContext(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), admin)
      yield* Effect.acquireRelease(run(`CREATE DATABASE ${database}`), () => Effect.orDie(run(`DROP DATABASE ${database} WITH (FORCE)`)))
      const url = new URL(citusUrl ?? "")
      url.pathname = `/${database}`
      const alone = PgClient.layer({ url: Redacted.make(url.toString()), maxConnections: 2 })
      yield* Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE EXTENSION citus`), alone)
      const refused = yield* Effect.exit(Layer.build(SqlStorage.pipe(Layer.provide(alone))))
      expect(Exit.isFailure(refused) ? String(refused.cause) : "").toContain(CITUS_REFUSALS.noWorkers)
      expect(Exit.isFailure(refused) && refused.cause.reasons.some((r) => r._tag === "Fail" && r.error instanceof CitusRefused)).toBe(true)
    }))))
})
