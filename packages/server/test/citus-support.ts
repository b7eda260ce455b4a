import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { execFile, spawnSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

/**
 * What the Citus suites share: the nodes of the cluster at `CITUS_URL`, a fresh Citus database of a
 * test's own over the nodes it names (the rebalance and worker-down tests change a database's
 * nodes, which no other test may see), and one more node started for a test
 * (`scripts/citus-node.sh`).
 */

const run = promisify(execFile)
const NODE_SCRIPT = fileURLToPath(new URL("../../../scripts/citus-node.sh", import.meta.url))

/** `url` with another host and port (and database, when given). */
export const urlAt = (url: string, node: { readonly host: string; readonly port: number }, database?: string): string => {
  const at = new URL(url)
  at.hostname = node.host
  at.port = String(node.port)
  if (database !== undefined) at.pathname = `/${database}`
  return at.toString()
}

/** Statements on the database at `url`, one connection, in order. */
export const sqlAt = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, f), PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))

/** The URLs of the workers of the Citus database at `url` (same database, each worker's address). */
export const workerUrls = async (url: string): Promise<ReadonlyArray<string>> => {
  const nodes = await sqlAt(url, (sql) =>
    sql<{ readonly nodename: string; readonly nodeport: number }>`SELECT nodename, nodeport FROM pg_dist_node WHERE groupid > 0 AND noderole = 'primary' ORDER BY nodeid`)
  return nodes.map((node) => urlAt(url, { host: node.nodename, port: node.nodeport }))
}

/**
 * A fresh database of the test's own, `cluster.sh --database` made in TypeScript: on the
 * coordinator at `coordinatorUrl` and the workers at `workers` (ports on the same host), with the
 * extension on each and the workers added. `drop` removes it from every node that answers.
 */
export const citusDatabase = async (coordinatorUrl: string, workers: ReadonlyArray<number>) => {
  const name = `paykit_t_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const coordinator = new URL(coordinatorUrl)
  const host = coordinator.hostname
  const ports = [Number(coordinator.port || "5432"), ...workers]
  for (const port of ports) {
    await sqlAt(urlAt(coordinatorUrl, { host, port }, "postgres"), (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
    await sqlAt(urlAt(coordinatorUrl, { host, port }, name), (sql) => sql.unsafe("CREATE EXTENSION citus"))
  }
  const url = urlAt(coordinatorUrl, { host, port: ports[0] ?? 5432 }, name)
  await sqlAt(url, (sql) =>
    Effect.andThen(
      sql`SELECT citus_set_coordinator_host(${host}, ${ports[0] ?? 5432})`,
      Effect.forEach(workers, (port) => sql`SELECT citus_add_node(${host}, ${port})`)
    ))
  return {
    name,
    url,
    /** Adds a worker at `port` on the same host (its database made first). */
    addWorker: async (port: number) => {
      await sqlAt(urlAt(coordinatorUrl, { host, port }, "postgres"), (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
      await sqlAt(urlAt(coordinatorUrl, { host, port }, name), (sql) => sql.unsafe("CREATE EXTENSION citus"))
      await sqlAt(url, (sql) => sql`SELECT citus_add_node(${host}, ${port})`)
      ports.push(port)
    },
    drop: async () => {
      for (const port of [...ports].reverse()) {
        await sqlAt(urlAt(coordinatorUrl, { host, port }, "postgres"), (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined)
      }
    }
  }
}

/**
 * Whether a test may start nodes of its own: this machine has what `cluster.sh` installs, and the
 * cluster at `CITUS_URL` is on this machine (a node started here must reach it, and it this one).
 */
export const NODES_START_HERE = ((): boolean => {
  const url = process.env["CITUS_URL"]
  if (url === undefined) return false
  const host = new URL(url).hostname
  return (host === "127.0.0.1" || host === "localhost") && spawnSync(NODE_SCRIPT, ["check"]).status === 0
})()

/** Starts (making it if missing) a PostgreSQL 15 node with citus preloaded on `port`: `scripts/citus-node.sh`. */
export const startNode = (port: number): Promise<unknown> => run(NODE_SCRIPT, ["start", String(port)], { timeout: 120_000 })

/** Stops the node on `port` (fast shutdown; its data kept). */
export const stopNode = (port: number): Promise<unknown> => run(NODE_SCRIPT, ["stop", String(port)], { timeout: 120_000 })
