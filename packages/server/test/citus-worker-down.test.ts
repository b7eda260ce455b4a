import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DueItem, dueDone, type DueWorkDeclarations, DueWorkSchedule } from "@paykit/engine"
import { citusDatabase, NODES_START_HERE, startNode, stopNode, workerUrls } from "./citus-support.ts"
import { api, CITUS_SETTINGS, CITUS_URL, json, startPostgresServer, type TestServer } from "./harness.ts"

/**
 * A worker of a Citus cluster down (docs/storage.md, "Citus: a worker down"): the organisations
 * whose rows lie on it answer 503 `service_unavailable`, with nothing half-written; every other
 * organisation keeps working, its requests and its due work; when the worker returns, its
 * organisations' due work runs by itself. The worker is one of the test's own (a node started on
 * `PRIVATE_PORT` by `scripts/citus-node.sh`, in a database of the test's own over it and one of
 * the cluster's workers), so no other test meets it stopped. Skipped without CITUS_URL, or when it names
 * a cluster on another machine (nodes of the test's own are started here).
 */

const PRIVATE_PORT = 5445
const PROBE = "worker_down_probe"

/** Waits (real time, polling) until `done` holds. */
const eventually = async (done: () => boolean | Promise<boolean>, what: string, limitMs = 60_000) => {
  const until = Date.now() + limitMs
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(!NODES_START_HERE)("a Citus worker down (CITUS_URL on this machine; skipped without it)", () => {
  let database: Awaited<ReturnType<typeof citusDatabase>> | undefined
  let server: TestServer | undefined
  const ran: Array<string> = []
  const probe: DueWorkDeclarations = {
    pumps: [],
    kinds: [{ kind: PROBE, run: (item: DueItem) => Effect.as(Effect.sync(() => void ran.push(item.organisation)), dueDone) }]
  }

  beforeAll(async () => {
    await startNode(PRIVATE_PORT)
    const [shared] = await workerUrls(CITUS_URL ?? "")
    database = await citusDatabase(CITUS_URL ?? "", [Number(new URL(shared ?? "").port), PRIVATE_PORT])
    server = await startPostgresServer(database.url, { dueWork: [probe], worker: { pollMillis: 100, leaseMillis: 3_000 } }, CITUS_SETTINGS)
  }, 180_000)
  afterAll(async () => {
    await startNode(PRIVATE_PORT)
    await server?.close()
    await database?.drop()
    await stopNode(PRIVATE_PORT)
  }, 180_000)

  it("its organisations answer 503 with nothing half-written, the others keep working, and its due work catches up when it returns", { timeout: 300_000 }, async () => {
    if (server === undefined) throw new Error("the server starts before the test")
    const running = server
    const sandbox = running.boot.accessToken ?? ""
    // Organisations until one lies on the private worker and one on the shared one.
    const nodeOf = async (organisation: string) =>
      running.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(sql<{ readonly port: number }>`SELECT nodeport AS port FROM citus_shards
          WHERE shardid = get_shard_id_for_distribution_column('resources', ${organisation}::text)`, (rows) => rows[0]?.port)))
    const byNode = new Map<number, { readonly id: string; readonly token: string }>()
    for (let i = 0; i < 20 && byNode.size < 2; i++) {
      const made = await json(await api(running.url, sandbox, "/sandbox/organisations", { method: "POST", body: { organisations: { name: `Org ${i}` } } }))
      const organisation = made["organisations"] as Record<string, unknown>
      const id = String(organisation["id"])
      const port = await nodeOf(id)
      if (port !== undefined && !byNode.has(port)) byNode.set(port, { id, token: String(organisation["access_token"]) })
    }
    const down = byNode.get(PRIVATE_PORT)
    const up = [...byNode.entries()].find(([port]) => port !== PRIVATE_PORT)?.[1]
    if (down === undefined || up === undefined) throw new Error("no organisation on each worker")
    const customer = (token: string, email: string, key?: string) =>
      api(running.url, token, "/customers", {
        method: "POST",
        ...(key === undefined ? {} : { headers: { "idempotency-key": key } }),
        body: { customers: { email, given_name: "Ada", family_name: "Lovelace" } }
      })
    for (const organisation of [down, up]) expect((await customer(organisation.token, "first@example.com")).status).toBe(201)
    // A due row each, falling due while the worker is down.
    const dueAt = Date.now() + 3_000
    await running.runtime.runPromise(Effect.gen(function*() {
      const schedule = yield* DueWorkSchedule
      for (const organisation of [down, up]) yield* schedule.schedule({ organisation: organisation.id, kind: PROBE, key: "k", dueAt })
    }))

    await stopNode(PRIVATE_PORT)
    try {
      // Its organisation: 503, the spec's error body, for a read and for a keyed write.
      const read = await api(running.url, down.token, "/customers")
      expect(read.status).toBe(503)
      const body = await json(read)
      expect(body["error"]).toMatchObject({ code: 503, type: "gocardless", errors: [{ reason: "service_unavailable" }] })
      expect((await customer(down.token, "second@example.com", "down-key")).status).toBe(503)
      // Every other organisation keeps working, its due row included.
      expect((await api(running.url, up.token, "/customers")).status).toBe(200)
      expect((await customer(up.token, "second@example.com")).status).toBe(201)
      await eventually(() => ran.includes(up.id), "the other organisation's due row")
      expect(ran).not.toContain(down.id)
    } finally {
      await startNode(PRIVATE_PORT)
    }

    // Back: its due row runs by itself, nothing of the refused write was kept, and its key is free.
    await eventually(() => ran.includes(down.id), "its organisation's due row, once the worker is back")
    await eventually(async () => (await api(running.url, down.token, "/customers")).status === 200, "its organisation answering again")
    const listed = await json(await api(running.url, down.token, "/customers"))
    expect((listed["customers"] as ReadonlyArray<Record<string, unknown>>).map((c) => c["email"])).toEqual(["first@example.com"])
    expect((await customer(down.token, "second@example.com", "down-key")).status).toBe(201)
    expect(ran.filter((organisation) => organisation === down.id)).toHaveLength(1)
  })
})
