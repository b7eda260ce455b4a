import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { citusDatabase, NODES_START_HERE, startNode, stopNode, workerUrls } from "./citus-support.ts"
import { api, beforeDailyRun, CITUS_URL, fulfilledMandateRequest, json, localClient, startPostgresServer, type TestServer } from "./harness.ts"

/**
 * Growing a Citus cluster while it works (docs/storage.md, "Adding a worker"): a third worker (a
 * node of the test's own on `THIRD_WORKER_PORT`, `scripts/citus-node.sh`) is added and
 * `citus_rebalance_start()` moves shards onto it while five organisations' subscriptions are
 * charged, and requests keep coming. Each organisation's clock is advanced a day at a time until
 * the rebalance has ended (and for at least `DAYS`), and its subscriptions fall due on twenty
 * different days of the month, so charges are made on most days: the moves overlap the charges by
 * construction, and a watcher sees the payments grow while a move runs. Then: every subscription
 * charged on exactly the dates it announced when it was created (nothing lost, nothing twice), the
 * new worker holds shards, and no request failed for longer than one shard's move took. The moves
 * block writes to the shards moving (`block_writes`: this cluster's PostgreSQL runs `wal_level =
 * replica`; with `logical` Citus moves them online), so a write to a moving shard waits rather than
 * fails. Skipped without CITUS_URL, or when it names a cluster on another machine.
 */

const THIRD_WORKER_PORT = 5444
/** Enough shards that the rebalancer moves several groups of co-located shards onto the new worker. */
const SHARDS = 8
const ORGANISATIONS = 5
/** Subscriptions an organisation, on days of the month 1 to 20 (a charge moved off a weekend or holiday stays in its month). */
const SUBSCRIPTIONS = 20
/** Days each organisation is advanced at least; it goes on a day at a time until the rebalance has ended. */
const DAYS = 40
/** A bound on the days advanced, should a rebalance never end. */
const MOST_DAYS = 400

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
    const organisations: Array<{ readonly token: string; readonly subscriptions: ReadonlyMap<string, ReadonlyArray<string>> }> = []
    for (let i = 0; i < ORGANISATIONS; i++) {
      const made = await json(await api(running.url, sandbox, "/sandbox/organisations", { method: "POST", body: { organisations: { name: `Grown ${i}` } } }))
      const token = String((made["organisations"] as Record<string, unknown>)["access_token"])
      const client = localClient(token, running.url)
      // The subscriptions are made before the day's run, so the dates they announce are the ones charged.
      await beforeDailyRun(running.url, token)
      const { mandate } = await fulfilledMandateRequest(client)
      // Each subscription's charge dates as announced when it was made: the model its payments are checked against.
      const subscriptions = new Map<string, ReadonlyArray<string>>()
      for (let s = 0; s < SUBSCRIPTIONS; s++) {
        const made = await client.subscriptions.create({ amount: 1_000 + s, currency: "GBP", interval_unit: "monthly", day_of_month: String(s + 1), links: { mandate } } as never)
        subscriptions.set(made.id ?? "", (made.upcoming_payments ?? []).map((upcoming) => String(upcoming.charge_date)))
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

    // The days of charges (each organisation advanced a day at a time until the rebalance has
    // ended) and the rebalance, at once; a watcher counts the payments whenever a move is running.
    await cluster.addWorker(THIRD_WORKER_PORT)
    const startedAt = Date.now()
    await sql((s) => s`SELECT citus_rebalance_start(shard_transfer_mode := 'block_writes')`)
    let rebalanced = false
    const advances = organisations.map(async (organisation) => {
      const failures: Array<string> = []
      let days = 0
      while ((days < DAYS || !rebalanced) && days < MOST_DAYS) {
        const response = await api(running.url, organisation.token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })
        if (response.status !== 200) failures.push(`${response.status} ${await response.text()}`)
        else await response.arrayBuffer()
        days++
      }
      return failures
    })
    const paymentsWhileMoving: Array<number> = []
    const watching = (async () => {
      while (!rebalanced) {
        const [seen] = await sql((s) => s<{ readonly moving: number; readonly payments: number }>`SELECT
          (SELECT count(*) FROM pg_dist_background_task WHERE status = 'running')::int AS moving,
          (SELECT count(*) FROM resources WHERE resource_type = 'payments')::int AS payments`)
        if (seen !== undefined && seen.moving > 0) paymentsWhileMoving.push(seen.payments)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    await sql((s) => s`SELECT citus_rebalance_wait()`)
    const rebalancedIn = Date.now() - startedAt
    rebalanced = true
    await watching
    const failures = await Promise.all(advances)
    requesting = false
    await requests
    expect(failures.flat()).toEqual([])
    // Payments were made while shards moved.
    expect(Math.max(...paymentsWhileMoving) - Math.min(...paymentsWhileMoving)).toBeGreaterThan(0)

    // The new worker holds shards, moved while the charges ran.
    const moves = await sql((s) => s<{ readonly n: string }>`SELECT count(*)::text AS n FROM pg_dist_background_task WHERE command LIKE '%citus_move_shard_placement%' AND status = 'done'`)
    const moved = Number(moves[0]?.n)
    expect(moved).toBeGreaterThan(0)
    const onNew = await sql((s) => s<{ readonly n: string }>`SELECT count(*)::text AS n FROM citus_shards WHERE nodeport = ${THIRD_WORKER_PORT} AND table_name = 'resources'::regclass`)
    expect(Number(onNew[0]?.n)).toBeGreaterThan(0)

    // Every subscription charged on exactly the dates it announced when it was made, in order, and
    // still announcing the rest: nothing lost, nothing twice.
    for (const organisation of organisations) {
      const payments = (await json(await api(running.url, organisation.token, "/payments?limit=500")))["payments"] as ReadonlyArray<Record<string, unknown>>
      expect(payments.length).toBeGreaterThanOrEqual(SUBSCRIPTIONS)
      for (const [id, announced] of organisation.subscriptions) {
        const charged = payments
          .filter((p) => (p["links"] as Record<string, unknown>)["subscription"] === id)
          .map((p) => String(p["charge_date"]))
          .sort()
        const still = (await json(await api(running.url, organisation.token, `/subscriptions/${id}`)))["subscriptions"] as Record<string, unknown>
        const upcoming = (still["upcoming_payments"] as ReadonlyArray<Record<string, unknown>>).map((u) => String(u["charge_date"]))
        expect(charged.length).toBeGreaterThan(0)
        expect([...charged, ...upcoming].slice(0, announced.length)).toEqual(announced)
      }
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
