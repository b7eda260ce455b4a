import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { citusDatabase, NODES_START_HERE, startNode, stopNode, workerUrls } from "./citus-support.ts"
import { api, CITUS_URL, fulfilledMandateRequest, json, localClient, startPostgresServer, type TestServer } from "./harness.ts"

/**
 * Growing a Citus cluster while it works (docs/storage.md, "Adding a worker"): a third worker (a
 * node of the test's own on `THIRD_WORKER_PORT`, `scripts/citus-node.sh`) is added and
 * `citus_rebalance_start()` moves shards onto it while five organisations' subscriptions are
 * charged through their sandbox advances, and requests keep coming. Then: every subscription
 * charged once on its date (nothing lost, nothing twice), the new worker holds shards, and no
 * request failed for longer than one shard's move took. The moves block writes to the shards moving
 * (`block_writes`: this cluster's PostgreSQL runs `wal_level = replica`; with `logical` Citus moves
 * them online), so a write to a moving shard waits rather than fails. Skipped without CITUS_URL, or
 * when it names a cluster on another machine.
 */

const THIRD_WORKER_PORT = 5444
/** Enough shards that the rebalancer moves several groups of co-located shards onto the new worker. */
const SHARDS = 8
const ORGANISATIONS = 5
const SUBSCRIPTIONS = 20

describe.skipIf(!NODES_START_HERE)("a worker added and shards rebalanced while a day of charges runs (CITUS_URL on this machine; skipped without it)", () => {
  let database: Awaited<ReturnType<typeof citusDatabase>> | undefined
  let server: TestServer | undefined

  beforeAll(async () => {
    await startNode(THIRD_WORKER_PORT)
    const ports = (await workerUrls(CITUS_URL ?? "")).map((url) => Number(new URL(url).port))
    database = await citusDatabase(CITUS_URL ?? "", ports)
    server = await startPostgresServer(database.url, { worker: { pollMillis: 100, leaseMillis: 5_000 } }, { "citus.shard_count": String(SHARDS) })
  }, 240_000)
  afterAll(async () => {
    await server?.close()
    await database?.drop()
    await stopNode(THIRD_WORKER_PORT)
  }, 240_000)

  it("loses no charge and makes none twice, and no request fails longer than one shard's move", { timeout: 600_000 }, async () => {
    if (server === undefined || database === undefined) throw new Error("the server starts before the test")
    const running = server
    const cluster = database
    const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      running.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (client) => Effect.orDie(f(client))))
    const sandbox = running.boot.accessToken ?? ""
    const organisations: Array<{ readonly token: string; readonly subscriptions: ReadonlyArray<string> }> = []
    for (let i = 0; i < ORGANISATIONS; i++) {
      const made = await json(await api(running.url, sandbox, "/sandbox/organisations", { method: "POST", body: { organisations: { name: `Grown ${i}` } } }))
      const token = String((made["organisations"] as Record<string, unknown>)["access_token"])
      const client = localClient(token, running.url)
      const { mandate } = await fulfilledMandateRequest(client)
      const subscriptions: Array<string> = []
      for (let s = 0; s < SUBSCRIPTIONS; s++) {
        subscriptions.push((await client.subscriptions.create({ amount: 1_000 + s, currency: "GBP", interval_unit: "monthly", links: { mandate } } as never)).id ?? "")
      }
      organisations.push({ token, subscriptions })
    }

    // Requests all along: each organisation's customers listed and one made, every 50 ms; a failure is any 5xx.
    const samples: Array<{ readonly at: number; readonly failed: boolean }> = []
    let requesting = true
    const requests = (async () => {
      let n = 0
      while (requesting) {
        const organisation = organisations[n++ % organisations.length]
        const at = Date.now()
        const answers = await Promise.all([
          api(running.url, organisation?.token ?? "", "/customers"),
          api(running.url, organisation?.token ?? "", "/customers", { method: "POST", body: { customers: { email: `r${n}@example.com`, given_name: "R", family_name: "Q" } } })
        ])
        samples.push({ at, failed: answers.some((answer) => answer.status >= 500) })
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })()

    // The day of charges (each organisation advanced past its subscriptions' first charge date) and the rebalance, at once.
    await cluster.addWorker(THIRD_WORKER_PORT)
    const startedAt = Date.now()
    await sql((s) => s`SELECT citus_rebalance_start(shard_transfer_mode := 'block_writes')`)
    let finished = 0
    const advances = organisations.map((organisation) =>
      api(running.url, organisation.token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P40D" } }).then(async (response) => {
        finished++
        return [response.status, await response.text()] as const
      }))
    await sql((s) => s`SELECT citus_rebalance_wait()`)
    const rebalancedIn = Date.now() - startedAt
    // An advance still charging when the last shard had moved ran through every move: the moves ran
    // during the charges. (Not every advance: routed to their shards' nodes, some organisations'
    // days end sooner than the rebalance.)
    expect(finished).toBeLessThan(ORGANISATIONS)
    const answers = await Promise.all(advances)
    requesting = false
    await requests
    expect(answers.filter(([status]) => status !== 200)).toEqual([])

    // The new worker holds shards, moved while the charges ran.
    const moves = await sql((s) => s<{ readonly n: string }>`SELECT count(*)::text AS n FROM pg_dist_background_task WHERE command LIKE '%citus_move_shard_placement%' AND status = 'done'`)
    const moved = Number(moves[0]?.n)
    expect(moved).toBeGreaterThan(0)
    const onNew = await sql((s) => s<{ readonly n: string }>`SELECT count(*)::text AS n FROM citus_shards WHERE nodeport = ${THIRD_WORKER_PORT} AND table_name = 'resources'::regclass`)
    expect(Number(onNew[0]?.n)).toBeGreaterThan(0)

    // Every subscription charged once on its first charge date: nothing lost, nothing twice.
    for (const organisation of organisations) {
      const payments = (await json(await api(running.url, organisation.token, "/payments?limit=500")))["payments"] as ReadonlyArray<Record<string, unknown>>
      const charged = payments.map((p) => `${String((p["links"] as Record<string, unknown>)["subscription"])}/${String(p["charge_date"])}`)
      expect(new Set(charged).size).toBe(charged.length)
      const bySubscription = new Set(payments.map((p) => String((p["links"] as Record<string, unknown>)["subscription"])))
      expect([...bySubscription].sort()).toEqual([...organisation.subscriptions].sort())
    }

    // No request failed for longer than one shard's move took (the rebalance over its moves): the
    // longest stretch from a failed request to the next that succeeded.
    let longestFailing = 0
    let since: number | undefined
    for (const sample of samples) {
      if (sample.failed) since ??= sample.at
      else if (since !== undefined) {
        longestFailing = Math.max(longestFailing, sample.at - since)
        since = undefined
      }
    }
    expect(since).toBeUndefined()
    expect(samples.length).toBeGreaterThan(10)
    expect(longestFailing).toBeLessThanOrEqual(rebalancedIn / moved)
  })
})
