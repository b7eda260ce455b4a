import { Effect, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE } from "@paykit/core"
import { DbInteger } from "@paykit/store-sql"
import { CHILD_TOKEN, type ChildServer, freePort, startChild, stopChild } from "./child-server.ts"
import { api, json, tempDataDir } from "./harness.ts"
import { startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import {
  advance,
  field,
  freshDatabase,
  killHoldingALease,
  LEASE_MS,
  LeaseRow,
  type LeaseRowType,
  leasedBy,
  listAll,
  onFreshDatabase,
  start,
  subscriptionsThrough,
  tenAdvancesAtOnce,
  WEBHOOK_SECRET,
  WEBHOOK_SECRET_KEY,
  webhookEnv,
  WORKER_ENV
} from "./scale-out-support.ts"

/**
 * N processes as one (issue 16): three server processes (`npm start` in child processes) on one
 * PostgreSQL database. Subscriptions run through a month of daily runs, advanced through one
 * process while the others' workers claim the rows that fall due on the organisation's clock; one
 * process is killed with SIGKILL in the middle. Then: no payment was created twice, payouts
 * reconcile with the payments they paid out, every event reached the webhook receiver at least
 * once (the one process killed was caught holding a delivery), the outbound rate limit is one for
 * all processes, and an idempotency key holds across them, used one after the other or at once.
 * Each day is advanced through another process. A second case kills a process while it holds a lease:
 * another runs the row once the lease ran out. Skipped without DATABASE_URL.
 */

const databaseUrl = process.env["DATABASE_URL"]

describe.skipIf(databaseUrl === undefined)("three server processes on one PostgreSQL database", () => {
  const fresh = onFreshDatabase(databaseUrl ?? "")
  const { children, cleanups } = fresh

  it("run a month of daily runs as one while one of them is killed", { timeout: 300_000 }, async () => {
    const database = fresh.database()
    // The first start makes the organisation; the others find it. Every one delivers webhooks to the receiver.
    const receiver = await startReceiver(WEBHOOK_SECRET)
    cleanups.push(() => receiver.close())
    const env = webhookEnv(receiver.url)
    const a = await start(database.url, env)
    const [b, c] = await Promise.all([start(database.url, env), start(database.url, env)])
    children.push(a.child, b.child, c.child)
    const { subscriptions, mandate } = await subscriptionsThrough(a.url, 6)

    // A month, a day at a time, each day through another process (the clock is the database's,
    // not a process's). A third of the way, c is killed while it holds a lease: a delivery of
    // events made through a, which c's worker claimed and is sending to a receiver answering slowly.
    const processes = [a, b, c]
    let heldByC: ReadonlyArray<LeaseRowType> = []
    for (let day = 1; day <= 31; day++) {
      const through = processes[day % processes.length] ?? b
      await advance(through.url, "P1D", through.child.output)
      if (day === 10) {
        heldByC = await killHoldingALease(database, a.url, mandate, c.child, receiver)
        processes.splice(processes.indexOf(c), 1)
      }
    }
    await c.child.exited
    expect(heldByC.map((row) => row.kind)).toContain("webhook_delivery")

    // No payment created twice: one per subscription and charge date, across every process, and
    // one "created" event each.
    const payments = await listAll(a.url, "/payments", "payments")
    const charges = payments.map((p) => `${String(field(p, "links")["subscription"])}/${String(p["charge_date"])}`)
    expect(new Set(charges).size).toBe(charges.length)
    const paymentEvents = await listAll(a.url, "/events?resource_type=payments", "events")
    const createdOf = paymentEvents.filter((e) => e["action"] === "created").map((e) => String(field(e, "links")["payment"]))
    expect([...createdOf].sort()).toEqual(payments.map((p) => String(p["id"])).sort())
    // Every subscription charged through the month (weekly ones four times at least).
    subscriptions.forEach((subscription, i) =>
      expect(charges.filter((c) => c.startsWith(`${subscription}/`)).length).toBeGreaterThanOrEqual(i % 2 === 0 ? 4 : 1))
    const count = await database.query((sql) =>
      Effect.flatMap(sql`SELECT count(*) AS n FROM resources WHERE resource_type = 'payments'`, Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ n: DbInteger })))))
    expect(count[0]?.n).toBe(payments.length)

    // Payouts reconcile: every paid-out payment is in one payout, and each payout pays exactly its payments less its fees.
    const payouts = await listAll(a.url, "/payouts", "payouts")
    expect(payouts.length).toBeGreaterThan(0)
    const paidOut = payments.filter((p) => p["status"] === "paid_out")
    expect(paidOut.length).toBeGreaterThan(0)
    for (const payout of payouts) {
      const its = paidOut.filter((p) => field(p, "links")["payout"] === payout["id"])
      const collected = its.reduce((sum, p) => sum + Number(p["amount"]), 0)
      expect(Number(payout["amount"]) + Number(payout["deducted_fees"])).toBe(collected)
    }
    for (const p of paidOut) expect(payouts.some((payout) => payout["id"] === field(p, "links")["payout"])).toBe(true)

    // Every event of the month reached the receiver at least once, signed (the official client's
    // parse verified each body), though a process died holding whatever it was delivering.
    const events = (await listAll(a.url, "/events", "events")).map((e) => String(e["id"]))
    expect(events.length).toBeGreaterThan(0)
    const arrived = () => new Set(receiver.received.flatMap((r) => Array.isArray(r.parsed) ? r.parsed : []))
    const until = Date.now() + 2 * LEASE_MS + 60_000
    while (events.some((id) => !arrived().has(id)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200))
    expect(events.filter((id) => !arrived().has(id))).toEqual([])
    expect(receiver.received.every((r) => Array.isArray(r.parsed))).toBe(true)

    // One rate limit for every process: a and b together refuse past 300 outbound POSTs a minute.
    const left = 60_000 - (Date.now() % 60_000)
    if (left < 25_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
    const statuses: Array<number> = []
    for (let i = 0; i < OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) =>
        api((i + j) % 2 === 0 ? a.url : b.url, CHILD_TOKEN, "/outbound_payments", { method: "POST", body: {} })))
      statuses.push(...batch.map((response) => response.status))
    }
    expect(statuses.filter((s) => s === 429)).toEqual([])
    expect((await api(a.url, CHILD_TOKEN, "/outbound_payments", { method: "POST", body: {} })).status).toBe(429)
    expect((await api(b.url, CHILD_TOKEN, "/outbound_payments", { method: "POST", body: {} })).status).toBe(429)

    // Idempotency across processes: a key used through a is a conflict through b, naming a's resource.
    const keyed = (base: string, key: string, name: string) =>
      api(base, CHILD_TOKEN, "/creditors", { method: "POST", headers: { "idempotency-key": key }, body: { creditors: { name, country_code: "GB", creditor_type: "company" } } })
    const first = await keyed(a.url, "scale-out-1", "Keyed Ltd")
    expect(first.status).toBe(201)
    const id = field(await json(first), "creditors")["id"]
    const second = await keyed(b.url, "scale-out-1", "Keyed Ltd")
    expect(second.status).toBe(409)
    expect(JSON.stringify(await json(second))).toContain(String(id))
    // And at once: the same key through both processes together creates one creditor.
    const racing = await Promise.all([keyed(a.url, "scale-out-2", "Raced Ltd"), keyed(b.url, "scale-out-2", "Raced Ltd")])
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409])
    const creditors = await listAll(a.url, "/creditors", "creditors")
    expect(creditors.filter((creditor) => creditor["name"] === "Raced Ltd")).toHaveLength(1)
  })
})

describe.skipIf(databaseUrl === undefined)("a process killed while it holds a lease", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>
  const children: Array<ChildServer> = []
  beforeAll(async () => {
    database = await freshDatabase(databaseUrl ?? "")
  }, 60_000)
  afterAll(async () => {
    for (const child of children) await stopChild(child, "SIGKILL")
    await database.drop()
  }, 60_000)

  it("leaves its row to another process once the lease ran out", { timeout: 300_000 }, async () => {
    const first = await start(database.url)
    children.push(first.child)
    await subscriptionsThrough(first.url, 4)
    // A long advance through the first process; it is killed the moment it is seen holding a lease.
    const advancing = api(first.url, CHILD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by: "P200D" } }).catch(() => undefined)
    let held: ReadonlyArray<typeof LeaseRow.Type> = []
    while (held.length === 0) held = await leasedBy(database, first.child.child.pid)
    first.child.child.kill("SIGKILL")
    await first.child.exited
    await advancing
    // The row it held is still leased to it (the kill came before its completion).
    held = await leasedBy(database, first.child.child.pid)
    expect(held.length).toBe(1)
    const row = held[0]
    if (row === undefined) return
    const killedAt = Date.now()

    // Another process: its advance waits for the dead lease, then runs the row.
    const second = await start(database.url)
    children.push(second.child)
    const clock = field(await json(await api(second.url, CHILD_TOKEN, "/sandbox/simulator/clock")), "simulator_clock")
    const to = new Date(Math.max(row.due_at, Date.parse(String(clock["now"]))) + 1_000).toISOString()
    const moved = await api(second.url, CHILD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { to } })
    expect(moved.status).toBe(200)
    const after = await database.query((sql) =>
      Effect.flatMap(sql`SELECT kind, key, due_at, lease_owner, lease_until FROM due_work WHERE kind = ${row.kind} AND key = ${row.key}`, Schema.decodeUnknownEffect(Schema.Array(LeaseRow))))
    expect(after.filter((r) => r.lease_owner !== null && r.lease_owner.includes(`:${first.child.child.pid ?? -1}:`))).toEqual([])
    expect(Date.now()).toBeGreaterThanOrEqual(row.lease_until ?? killedAt)
  })
})

describe.skipIf(databaseUrl === undefined)("processes given different webhook keys", () => {
  const { children, cleanups, database: db } = onFreshDatabase(databaseUrl ?? "")

  it("refuse to start after the first, naming the variable", { timeout: 120_000 }, async () => {
    const url = db().url
    const first = await start(url, { PAYKIT_WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex") })
    children.push(first.child)
    // Another key given, and none given (a key file of its own made in its data directory).
    const own = tempDataDir()
    cleanups.push(async () => own.remove())
    const refused = [
      startChild({ databaseUrl: url }, await freePort(), { ...WORKER_ENV, PAYKIT_WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex") }),
      startChild({ databaseUrl: url }, await freePort(), { ...WORKER_ENV, PAYKIT_DATA_DIR: own.dir })
    ]
    children.push(...refused)
    for (const child of refused) {
      const exit = await child.exited
      expect(exit.code).not.toBe(0)
      expect(child.output()).toContain("does not open this database's sealed webhook secrets")
      expect(child.output()).toContain("set PAYKIT_WEBHOOK_SECRET_KEY to the key the other processes use")
      expect(child.output()).not.toContain("\"msg\":\"listening\"")
    }
    // The first still serves.
    expect((await api(first.url, CHILD_TOKEN, "/creditors")).status).toBe(200)
  })
})

describe.skipIf(databaseUrl === undefined)("concurrent clock advances over two processes", () => {
  const { children, database: db } = onFreshDatabase(databaseUrl ?? "")

  it("ten P1D advances at once leave the clock ten days on", { timeout: 180_000 }, async () => {
    const env = { PAYKIT_WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY }
    const a = await start(db().url, env)
    const b = await start(db().url, env)
    children.push(a.child, b.child)
    await tenAdvancesAtOnce(a.url, b.url)
  })
})

describe.skipIf(databaseUrl === undefined)("a process killed holding webhook deliveries, on the default lease", () => {
  const { children, cleanups, database: db } = onFreshDatabase(databaseUrl ?? "")

  it("has every webhook delivered within seconds by the others", { timeout: 300_000 }, async () => {
    const receiver = await startReceiver(WEBHOOK_SECRET)
    cleanups.push(() => receiver.close())
    // No PAYKIT_WORKER_LEASE_MS: the default lease is the one under test.
    const env = { ...webhookEnv(receiver.url), PAYKIT_WORKER_POLL_MS: "100" }
    const startDefault = async () => {
      const child = startChild({ databaseUrl: db().url }, await freePort(), env)
      children.push(child)
      return { child, url: await child.listening }
    }
    const a = await startDefault()
    const [b, c] = await Promise.all([startDefault(), startDefault()])
    const { mandate } = await subscriptionsThrough(a.url, 1)
    // Kill, in turn, a process caught holding a delivery; the survivors deliver what it held.
    const arrived = () => new Set(receiver.received.flatMap((r) => Array.isArray(r.parsed) ? r.parsed : []))
    for (const [victim, through] of [[c, a], [b, a]] as const) {
      const held = await killHoldingALease(db(), through.url, mandate, victim.child, receiver)
      expect(held.map((row) => row.kind)).toContain("webhook_delivery")
      const killedAt = Date.now()
      const events = (await listAll(through.url, "/events", "events")).map((e) => String(e["id"]))
      while (events.some((id) => !arrived().has(id)) && Date.now() < killedAt + 60_000) await new Promise((resolve) => setTimeout(resolve, 200))
      expect(events.filter((id) => !arrived().has(id))).toEqual([])
      // Seconds, not the five minutes of the former lease.
      expect(Date.now() - killedAt).toBeLessThan(45_000)
    }
  })
})
