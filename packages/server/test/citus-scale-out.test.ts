import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE } from "@paykit/core"
import { DbInteger } from "@paykit/store-sql"
import { startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { CHILD_TOKEN } from "./child-server.ts"
import { workerUrls } from "./citus-support.ts"
import { api, CITUS_SETTINGS, CITUS_URL, json } from "./harness.ts"
import {
  field,
  killHoldingALease,
  LEASE_MS,
  type LeaseRowType,
  listAll,
  onFreshDatabase,
  start,
  subscriptionsThrough,
  tenAdvancesAtOnce,
  WEBHOOK_SECRET,
  WEBHOOK_SECRET_KEY,
  webhookEnv
} from "./scale-out-support.ts"

/**
 * N processes on N nodes: three server processes (`npm start` in child processes) on one
 * distributed schema of a Citus cluster, the first through the coordinator, the others each through
 * a worker (Citus routes a statement from any node). Three organisations' subscriptions run through
 * ten days of daily runs, each day advanced through another process, one process killed with
 * SIGKILL while it holds a webhook delivery. Then: no payment made twice, every event of the
 * organisation with a webhook endpoint delivered at least once, one rate limit and one idempotency key for processes on different nodes, and clock
 * advances through two nodes at once serialised (`ClockAdvanceLock`'s row lock). Skipped without
 * CITUS_URL.
 */

const DAYS = 10

describe.skipIf(CITUS_URL === undefined)("three server processes, one through each node of a Citus cluster (CITUS_URL; skipped without it)", () => {
  const fresh = onFreshDatabase(CITUS_URL ?? "", CITUS_SETTINGS)
  const { children, cleanups } = fresh

  it(`run ${DAYS} days of three organisations' daily runs as one while one of them is killed`, { timeout: 600_000 }, async () => {
    const database = fresh.database()
    const receiver = await startReceiver(WEBHOOK_SECRET)
    cleanups.push(() => receiver.close())
    const env = webhookEnv(receiver.url)
    // The coordinator's process migrates and distributes; the workers' find the schema made.
    const a = await start(database.url, env)
    const [first, second] = await workerUrls(CITUS_URL ?? "")
    const [b, c] = await Promise.all([start(database.on(first ?? ""), env), start(database.on(second ?? ""), env)])
    children.push(a.child, b.child, c.child)
    // Three organisations: the first start's and two more, each with its own token and clock.
    const tokens = [CHILD_TOKEN]
    for (const name of ["Second Ltd", "Third Ltd"]) {
      const made = await json(await api(b.url, CHILD_TOKEN, "/sandbox/organisations", { method: "POST", body: { organisations: { name } } }))
      tokens.push(String(field(made, "organisations")["access_token"]))
    }
    const mandates: Array<string> = []
    for (const [i, token] of tokens.entries()) mandates.push((await subscriptionsThrough([a, b, c][i]?.url ?? a.url, 4, token)).mandate)

    const processes = [a, b, c]
    let heldByC: ReadonlyArray<LeaseRowType> = []
    for (let day = 1; day <= DAYS; day++) {
      for (const [i, token] of tokens.entries()) {
        const through = processes[(day + i) % processes.length] ?? a
        const response = await api(through.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })
        if (response.status !== 200) throw new Error(`day ${day} through ${through.url}: ${response.status} ${await response.text()}\n${through.child.output().slice(-4000)}`)
      }
      if (day === 4) {
        heldByC = await killHoldingALease(database, a.url, mandates[0] ?? "", c.child, receiver)
        processes.splice(processes.indexOf(c), 1)
      }
    }
    expect(heldByC.map((row) => row.kind)).toContain("webhook_delivery")

    for (const token of tokens) {
      // No payment twice: one per subscription and charge date, and one "created" event each.
      const payments = await listAll(a.url, "/payments", "payments", token)
      const charges = payments.map((p) => `${String(field(p, "links")["subscription"])}/${String(p["charge_date"])}`)
      expect(charges.length).toBeGreaterThan(0)
      expect(new Set(charges).size).toBe(charges.length)
      const created = (await listAll(b.url, "/events?resource_type=payments", "events", token)).filter((e) => e["action"] === "created")
      expect(created.map((e) => String(field(e, "links")["payment"])).sort()).toEqual(payments.map((p) => String(p["id"])).sort())
    }
    const stored = await database.query((sql) =>
      Effect.flatMap(sql`SELECT count(*) AS n FROM resources WHERE resource_type = 'payments'`, Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ n: DbInteger })))))
    const listed = (await Promise.all(tokens.map((token) => listAll(a.url, "/payments", "payments", token)))).flat()
    expect(stored[0]?.n).toBe(listed.length)

    // Every event of the first organisation (whose endpoint PAYKIT_WEBHOOK_URL names) reached the
    // receiver, though a process died holding a delivery.
    const events = (await listAll(a.url, "/events", "events")).map((e) => String(e["id"]))
    const arrived = () => new Set(receiver.received.flatMap((r) => Array.isArray(r.parsed) ? r.parsed : []))
    const until = Date.now() + 2 * LEASE_MS + 90_000
    while (events.some((id) => !arrived().has(id)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250))
    expect(events.filter((id) => !arrived().has(id))).toEqual([])

    // One rate limit for processes on two nodes: a (coordinator) and b (a worker) refuse together past the limit.
    const left = 60_000 - (Date.now() % 60_000)
    if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
    const statuses: Array<number> = []
    for (let i = 0; i < OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) =>
        api((i + j) % 2 === 0 ? a.url : b.url, CHILD_TOKEN, "/outbound_payments", { method: "POST", body: {} })))
      statuses.push(...batch.map((response) => response.status))
    }
    expect(statuses.filter((s) => s === 429)).toEqual([])
    expect((await api(b.url, CHILD_TOKEN, "/outbound_payments", { method: "POST", body: {} })).status).toBe(429)

    // One idempotency key for both nodes, used at once: one creditor.
    const keyed = (base: string) =>
      api(base, CHILD_TOKEN, "/creditors", { method: "POST", headers: { "idempotency-key": "citus-scale-out" }, body: { creditors: { name: "Raced Ltd", country_code: "GB", creditor_type: "company" } } })
    const racing = await Promise.all([keyed(a.url), keyed(b.url)])
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409])
  })
})

describe.skipIf(CITUS_URL === undefined)("clock advances through processes on two nodes of a Citus cluster (CITUS_URL; skipped without it)", () => {
  const fresh = onFreshDatabase(CITUS_URL ?? "", CITUS_SETTINGS)
  const { children } = fresh

  it("ten P1D advances at once through processes on two nodes leave the clock ten days on", { timeout: 240_000 }, async () => {
    const database = fresh.database()
    const env = { PAYKIT_WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY }
    const [worker] = await workerUrls(CITUS_URL ?? "")
    const a = await start(database.url, env)
    const b = await start(database.on(worker ?? ""), env)
    children.push(a.child, b.child)
    await tenAdvancesAtOnce(a.url, b.url)
  })
})
