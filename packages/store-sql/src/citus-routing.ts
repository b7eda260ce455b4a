import { PgClient } from "@effect/sql-pg"
import { Clock, Deferred, Effect, Exit, Layer, Redacted, Schema, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { WorkingOrganisation } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { COLOCATION_ANCHOR, type CitusSetting } from "./citus.ts"
import { DbInteger } from "./db-integer.ts"

/**
 * On a Citus cluster, a statement sent to a node that does not hold its shard is planned twice:
 * by that node, then again by the shard's node, which receives it as text and keeps no plan.
 * Sent to the shard's own node, Citus runs it in that backend (local execution), once, and the
 * coordinator leaves the hot path: a day's charges cost the cluster 4-42% less CPU, a read request
 * 22-49% less (docs/scaling.md, "Routing by organisation"). So the client a process gets on a
 * cluster is routed: a transaction,
 * or a statement outside one, begun in a fiber working for an organisation (`WorkingOrganisation`)
 * takes its connection from a pool on the node holding that organisation's shards; work for no
 * organisation (the polls across shards, start-up, maintenance) uses the process's own node.
 *
 * Routing is a hint Citus does not need: a placement read before a shard moved still answers, Citus
 * forwarding the statements, only slower, until it is read again (`PLACEMENT_TTL_MILLIS`). A node
 * the process cannot reach is left out for a while (`UNREACHABLE_MILLIS`) and its organisations go
 * through the process's own node, as before routing, so a cluster whose workers only the
 * coordinator reaches still works.
 */

/** How long an organisation's node is trusted before it is read again (a rebalance moves shards). */
export const PLACEMENT_TTL_MILLIS = 30_000

/** How long a node whose first connection failed is passed over before it is tried again. */
export const UNREACHABLE_MILLIS = 10_000

/** A node as Citus's metadata names it, `host:port`. */
type NodeKey = string

const PlacementRows = Schema.Array(Schema.Struct({ host: Schema.String, port: DbInteger }))

/**
 * The node holding `organisation`'s shard of the co-location group (every distributed table is in
 * one group, so the anchor's placement is every table's). Citus's metadata is on every node.
 */
export const placementStatement = (sql: SqlClient.SqlClient, organisation: string) =>
  sql`SELECT n.nodename AS host, n.nodeport AS port
    FROM pg_dist_placement p JOIN pg_dist_node n ON n.groupid = p.groupid
    WHERE p.shardid = get_shard_id_for_distribution_column(${COLOCATION_ANCHOR}::regclass, ${organisation}::text)
      AND n.noderole = 'primary' AND n.isactive
    LIMIT 1`

/** What a routed client needs to open a pool on another node as it opened its own. */
export interface RoutedOptions {
  /** The process's own node: its pool, and (unless `nodeUrl`) the other nodes' with their host and port. */
  readonly url: Redacted.Redacted<string>
  readonly maxConnections: number
  readonly startupParameters?: Readonly<Record<string, string>> | undefined
  /**
   * How this process reaches a node that Citus's metadata names `host:port`, where that is not
   * `url` with the node's host and port (say the nodes know each other by addresses the process
   * cannot use); undefined: the node is not reached, its organisations go through the own node.
   */
  readonly nodeUrl?: ((host: string, port: number) => string | undefined) | undefined
}

/** `url` with its host and port replaced, or undefined when it names no host (a socket directory). */
export const urlOnNode = (url: string, host: string, port: number): string | undefined => {
  try {
    const parsed = new URL(url)
    if (parsed.hostname === "") return undefined
    parsed.hostname = host
    parsed.port = String(port)
    return parsed.toString()
  } catch {
    return undefined
  }
}

/** PostgreSQL answers COMMIT with ROLLBACK for a transaction that had failed: a failure, as `PgClient` has it. */
const commit = (conn: Connection): Effect.Effect<void, SqlError> =>
  Effect.flatMap(conn.executeRaw("COMMIT", []), (result) =>
    typeof result === "object" && result !== null && "command" in result && result.command === "ROLLBACK"
      ? Effect.fail(new SqlError({
        reason: new UnknownError({ cause: new Error("COMMIT rolled back an aborted transaction"), message: "COMMIT rolled back an aborted transaction", operation: "commit" })
      }))
      : Effect.void)

/**
 * Every session a process opens on a cluster plans each statement with its values (a custom plan).
 * With a generic plan (PostgreSQL's default for a prepared statement after five runs, and the
 * client prepares every statement), Citus 13.2.2 on the node holding the shard looks for the local
 * plan it cached, never finds it, plans the shard's statement again and keeps that plan too: a
 * backend's plan memory grew without bound (848 MB after 5,000 reads by id, measured) and each
 * statement cost 1.1-1.4 ms, against 0.44 ms with a custom plan. It is a Citus bug
 * (citusdata/citus#8783, fixed by #8824 after 13.2.2); docs/scaling.md, "Routing by organisation".
 * The process's own pool needs it too: a process pointed at a worker runs its statements there.
 */
const NODE_SESSION: Readonly<Record<string, string>> = { plan_cache_mode: "force_custom_plan" }

/** Whether a process on a cluster routes an organisation's work to its node (`PAYKIT_CITUS_ROUTING`). */
export const CITUS_ROUTING_SETTINGS = ["on", "off"] as const
export type CitusRouting = (typeof CITUS_ROUTING_SETTINGS)[number]

type Placement = { readonly node: NodeKey | undefined; readonly until: number }
type NodePool = { readonly client: PgClient.PgClient | undefined; readonly until: number }

/**
 * A `SqlClient` whose connections come from the node holding the fiber's organisation's shards
 * (`WorkingOrganisation`), `own` serving everything else; pools on the other nodes are opened
 * when first needed, in the layer's scope.
 */
export const makeRoutedClient = (own: PgClient.PgClient, options: RoutedOptions) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const placements = new Map<string, Placement>()
    const pools = new Map<NodeKey, NodePool>()
    const opening = new Map<NodeKey, Deferred.Deferred<PgClient.PgClient | undefined>>()

    const placementOf = (organisation: string, now: number): Effect.Effect<NodeKey | undefined> => {
      const known = placements.get(organisation)
      if (known !== undefined && known.until > now) return Effect.succeed(known.node)
      return placementStatement(own, organisation).pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(PlacementRows)),
        Effect.map(([row]) => row === undefined ? undefined : `${row.host}:${row.port}`),
        // Not distributed yet (before the migrations distribute the schema), or the metadata unreadable: the own node.
        Effect.orElseSucceed(() => undefined),
        Effect.tap((node) => Effect.sync(() => placements.set(organisation, { node, until: now + PLACEMENT_TTL_MILLIS })))
      )
    }

    const openPool = (node: NodeKey, now: number): Effect.Effect<PgClient.PgClient | undefined> => {
      const separator = node.lastIndexOf(":")
      const [host, port] = [node.slice(0, separator), Number(node.slice(separator + 1))]
      const url = options.nodeUrl === undefined ? urlOnNode(Redacted.value(options.url), host, port) : options.nodeUrl(host, port)
      if (url === undefined) return Effect.succeed(undefined)
      return PgClient.make({ url: Redacted.make(url), maxConnections: options.maxConnections, startupParameters: { ...options.startupParameters, ...NODE_SESSION } }).pipe(
        // Tried once, so a node the process cannot reach is found here and not by a request.
        Effect.tap((client) => client`SELECT 1`),
        Scope.provide(scope),
        Effect.provide(Reactivity.layer),
        Effect.orElseSucceed(() => undefined),
        Effect.tap((client) => Effect.sync(() => pools.set(node, { client, until: client === undefined ? now + UNREACHABLE_MILLIS : Number.POSITIVE_INFINITY })))
      )
    }

    // An organisation on the process's own node gets a routed pool there too: its sessions' custom
    // plans (`NODE_SESSION`) are what makes its statements cheap, not the node alone.
    const clientOfNode = (node: NodeKey | undefined, now: number): Effect.Effect<PgClient.PgClient> => {
      if (node === undefined) return Effect.succeed(own)
      const pool = pools.get(node)
      if (pool !== undefined && (pool.client !== undefined || pool.until > now)) return Effect.succeed(pool.client ?? own)
      // Fibers arriving while the pool opens wait for it rather than open one each. The opener
      // registers and settles its promise without an interruption between (one interrupted
      // in between would leave the others waiting for good); the opening itself stays interruptible.
      return Effect.uninterruptibleMask((restore) => {
        const pending = opening.get(node)
        if (pending !== undefined) return Effect.map(restore(Deferred.await(pending)), (client) => client ?? own)
        const opened = Deferred.makeUnsafe<PgClient.PgClient | undefined>()
        opening.set(node, opened)
        return restore(openPool(node, now)).pipe(
          Effect.onExit((exit) => Effect.andThen(Deferred.succeed(opened, Exit.isSuccess(exit) ? exit.value : undefined), Effect.sync(() => opening.delete(node)))),
          Effect.map((client) => client ?? own)
        )
      })
    }

    /** The client the fiber's statements go to. */
    const routed: Effect.Effect<PgClient.PgClient> = Effect.withFiber((fiber) => {
      const organisation = fiber.getRef(WorkingOrganisation)
      if (organisation === undefined) return Effect.succeed(own)
      return Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.flatMap(placementOf(organisation, now), (node) => clientOfNode(node, now)))
    })
    const acquirer = Effect.flatMap(routed, (client) => client.reserve)

    return yield* SqlClient.make({
      acquirer,
      transactionAcquirer: acquirer,
      compiler: PgClient.makeCompiler(),
      prepareTransactionControls: true,
      commit,
      releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
      driver: own.driver,
      spanAttributes: [["db.system.name", "postgresql"]]
    })
  })

/**
 * `base` (PostgreSQL at `options.url`), with its `SqlClient` routed by organisation when the
 * database is a Citus cluster, unless `citus` or `routing` is `off` (then every statement goes
 * through the node `url` names, Citus forwarding it). On a cluster the `SqlClient`'s own pool is one
 * with the cluster's session settings (`NODE_SESSION`); the base's `PgClient` stays as it is.
 */
export const routedOnCitus = (
  base: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError>,
  options: RoutedOptions & { readonly citus: CitusSetting; readonly routing?: CitusRouting | undefined }
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  options.citus === "off" ? base : Layer.effect(SqlClient.SqlClient, Effect.gen(function*() {
    const probe = yield* PgClient.PgClient
    const citus = yield* probe<{ found: number }>`SELECT 1 AS found FROM pg_extension WHERE extname = 'citus'`
    if (citus.length === 0) return probe
    const own = yield* PgClient.make({ url: options.url, maxConnections: options.maxConnections, startupParameters: { ...options.startupParameters, ...NODE_SESSION } })
    return options.routing === "off" ? own : yield* makeRoutedClient(own, options)
  })).pipe(Layer.provide(Reactivity.layer), Layer.provideMerge(base))
