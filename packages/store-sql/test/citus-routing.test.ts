import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { forOrganisation, Transactor } from "@paykit/engine"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type CitusRouting, routedOnCitus, urlOnNode } from "../src/citus-routing.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { CITUS_TEST_SHARDS, freshCitusSchema } from "./support/databases.ts"

/**
 * The client routed by organisation on a Citus cluster (docs/scaling.md, "Routing by
 * organisation"): an organisation's statements and transactions reach the node holding its
 * shards, everything else the process's own node, and a node the process cannot reach is passed
 * over for its own.
 */

const citusUrl = process.env["CITUS_URL"]

describe("a node's URL", () => {
  it("is the process's URL with the node's host and port, everything else kept", () =>
    fc.assert(fc.property(
      fc.constantFrom("127.0.0.1", "10.0.4.2", "worker-1.internal"),
      fc.integer({ min: 1, max: 65_535 }),
      fc.constantFrom("postgresql://u:p%40ss@db.example:5441/paykit?sslmode=require", "postgres://postgres@127.0.0.1/test"),
      (host, port, url) => {
        const after = new URL(urlOnNode(url, host, port) ?? "")
        const before = new URL(url)
        expect([after.hostname, after.port]).toEqual([host, String(port)])
        expect([after.protocol, after.username, after.password, after.pathname, after.search]).toEqual([before.protocol, before.username, before.password, before.pathname, before.search])
      }
    )))

  it("is none for a URL naming no host (a socket directory) or no URL at all", () => {
    expect(urlOnNode("postgresql:///test?host=/var/run/postgresql", "127.0.0.1", 5442)).toBeUndefined()
    expect(urlOnNode("host=127.0.0.1 dbname=test", "127.0.0.1", 5442)).toBeUndefined()
  })
})

/** Where each organisation's shards are, read from Citus's own view of them. */
const shardNodes = (sql: SqlClient.SqlClient, organisations: ReadonlyArray<string>) =>
  Effect.map(
    sql<{ readonly organisation: string; readonly port: number }>`SELECT o AS organisation,
      (SELECT nodeport FROM citus_shards WHERE shardid = get_shard_id_for_distribution_column('resources', o)) AS port
      FROM unnest(${organisations}::text[]) AS o`,
    (rows) => new Map(rows.map((row) => [row.organisation, Number(row.port)]))
  )

/** The port of the backend a statement ran in. */
const portOf = (sql: SqlClient.SqlClient) => Effect.map(sql<{ readonly port: number }>`SELECT inet_server_port() AS port`, ([row]) => Number(row?.port))

/** How a test's process reaches the cluster: through which node, as whom for the other nodes, routed or not. */
interface Reach {
  /** The node the process is pointed at (default: the coordinator, `CITUS_URL`). */
  readonly through?: number
  /** The role its pools on the other nodes connect as (default: the URL's). */
  readonly connectAs?: string
  readonly routing?: CitusRouting
}

/** A fresh distributed schema, and the storage on a client made by `routedOnCitus` as `reach` says. */
const onRoutedCluster = <A>(f: (context: Context.Context<SqlClient.SqlClient | Transactor>, own: number) => Effect.Effect<A, unknown, Scope.Scope>, reach: Reach = {}) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fresh = yield* freshCitusSchema(citusUrl ?? "")
    // A process pointed at a worker finds the schema migrated and distributed through the coordinator.
    if (reach.through !== undefined) yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provide(fresh.client(citusUrl ?? "")))))
    const url = Object.assign(new URL(citusUrl ?? ""), reach.through === undefined ? {} : { port: String(reach.through) }).toString()
    const startupParameters = { "citus.shard_count": String(CITUS_TEST_SHARDS), search_path: fresh.name, application_name: APPLICATION }
    const base = PgClient.layer({ url: Redacted.make(url), startupParameters, maxConnections: 4 })
    const others = reach.connectAs === undefined ? url : Object.assign(new URL(url), { username: reach.connectAs }).toString()
    const nodeUrl = (host: string, port: number) => urlOnNode(others, host, port)
    const client = routedOnCitus(base, { url: Redacted.make(url), nodeUrl, maxConnections: 4, startupParameters, citus: "auto", routing: reach.routing })
    const context = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provideMerge(client))))
    return yield* f(context, Number(new URL(url).port))
  })))

const ORGANISATIONS = Array.from({ length: 10 }, (_, i) => `OR_route_${i}`)

/** This file's sessions, told apart from the other suites' on the same cluster. */
const APPLICATION = `paykit_routing_test_${process.pid}`

/** Each worker's sessions of this file, by port. */
const sessionsOnWorkers = (sql: SqlClient.SqlClient) =>
  sql<{ readonly port: number; readonly sessions: string }>`SELECT nodeport AS port, result AS sessions FROM run_command_on_workers(
    ${`SELECT count(*) FROM pg_stat_activity WHERE application_name = '${APPLICATION}'`})`

describe.skipIf(citusUrl === undefined)("routed by organisation on Citus (CITUS_URL; skipped without it)", () => {
  it("an organisation's statements, transactions and units of work run on the node holding its shards; work for none on the process's own node", { timeout: 120_000 }, () =>
    onRoutedCluster((context, own) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      const transactor = Context.get(context, Transactor)
      const expected = yield* shardNodes(sql, ORGANISATIONS)
      // The ten lie on both workers, so routing is seen to choose, not to answer one node.
      expect(new Set(expected.values()).size).toBe(2)
      for (const organisation of ORGANISATIONS) {
        const route = forOrganisation(organisation)
        const inUnit = transactor.transaction(Effect.gen(function*() {
          yield* sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
            VALUES (${organisation}, 'customers', 'CU1', 1, now(), '{}'::jsonb, '{}'::json)`
          return yield* portOf(sql)
        }))
        expect([organisation, yield* route(portOf(sql)), yield* route(sql.withTransaction(portOf(sql))), yield* route(inUnit)])
          .toEqual([organisation, expected.get(organisation), expected.get(organisation), expected.get(organisation)])
      }
      expect(yield* portOf(sql)).toBe(own)
      expect(yield* sql.withTransaction(portOf(sql))).toBe(own)
      // Every session on the cluster plans with its values, the routed ones and the process's own.
      const planMode = Effect.map(sql<{ readonly mode: string }>`SELECT current_setting('plan_cache_mode') AS mode`, ([row]) => row?.mode)
      expect([yield* forOrganisation(ORGANISATIONS[0] ?? "")(planMode), yield* planMode]).toEqual(["force_custom_plan", "force_custom_plan"])
      // The rows written through the workers are there for a reader anywhere.
      const [count] = yield* sql<{ readonly n: string }>`SELECT count(*)::text AS n FROM resources`
      expect(Number(count?.n)).toBe(ORGANISATIONS.length)
    })))

  it("fibers that first reach a node together open one pool there, of the process's size", { timeout: 120_000 }, () =>
    onRoutedCluster((context) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => ORGANISATIONS[i % ORGANISATIONS.length] ?? ""), (organisation) =>
        forOrganisation(organisation)(sql`SELECT pg_sleep(0.02)`), { concurrency: "unbounded", discard: true })
      const sessions = yield* sessionsOnWorkers(sql)
      expect(sessions.length).toBe(2)
      // A pool a worker, of at most 4 connections; a pool a fiber would have opened up to 40.
      for (const node of sessions) expect(Number(node.sessions)).toBeGreaterThan(0)
      for (const node of sessions) expect(Number(node.sessions)).toBeLessThanOrEqual(4)
    })))

  it("a node the process cannot reach is passed over: its organisations' work goes through the process's own node, and succeeds", { timeout: 120_000 }, async () => {
    // The other nodes reached as a role no node knows: the process reaches its own node only.
    await onRoutedCluster((context, own) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      for (const organisation of ORGANISATIONS.slice(0, 4)) {
        expect(yield* forOrganisation(organisation)(sql.withTransaction(portOf(sql)))).toBe(own)
      }
    }), { connectAs: "paykit_no_such_role" })
  })

  // Citus 13.2.2 keeps every plan it makes of a prepared statement run on its shard's node with a
  // generic plan (src/citus-routing.ts, `NODE_SESSION`); a process's sessions must not reach one.
  const READS = 300
  /** A kept plan of this read is about 170 KB, so 300 of them 50 MB; a megabyte allows for PostgreSQL's own. */
  const FLAT_BYTES = 1_000_000
  const planMemoryAfterReads = (reach: Reach) =>
    onRoutedCluster((context) => Effect.gen(function*() {
      const sql = Context.get(context, SqlClient.SqlClient)
      const organisation = ORGANISATIONS[0] ?? ""
      const node = (yield* shardNodes(sql, [organisation])).get(organisation)
      if (reach.through !== undefined && reach.through !== node) return "the test's organisation is not on the node the process is pointed at"
      const bytes = Effect.map(sql<{ readonly bytes: string }>`SELECT coalesce(sum(total_bytes), 0)::text AS bytes FROM pg_backend_memory_contexts WHERE name = 'CachedPlan'`, ([row]) => Number(row?.bytes))
      const read = sql`SELECT data FROM resources WHERE organisation_id = ${organisation} AND resource_type = 'customers' AND id = ${"CU1"}`
      // One transaction: one backend, on the shard's node, whose memory is read before and after.
      return yield* forOrganisation(organisation)(sql.withTransaction(Effect.gen(function*() {
        for (let i = 0; i < 20; i++) yield* read
        const before = yield* bytes
        for (let i = 0; i < READS; i++) yield* read
        return (yield* bytes) - before
      })))
    }), reach)

  it("a statement run again and again keeps its backend's plan memory flat, routed to its shard's node or sent to a worker by a process pointed there", { timeout: 120_000 }, async () => {
    const workers = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(citusUrl ?? ""), maxConnections: 1 }))
      const nodes = yield* Context.get(admin, PgClient.PgClient)<{ readonly port: number }>`SELECT nodeport AS port FROM pg_dist_node WHERE groupid > 0 AND noderole = 'primary'`
      return nodes.map((node) => Number(node.port))
    })))
    // Routed, and pointed at each worker unrouted: one of those holds the organisation's shard.
    const results = [await planMemoryAfterReads({})]
    for (const through of workers) results.push(await planMemoryAfterReads({ through, routing: "off" }))
    const measured = results.filter((result) => typeof result === "number")
    expect(measured.length).toBe(2)
    for (const grown of measured) expect(grown).toBeLessThan(FLAT_BYTES)
  })
})
