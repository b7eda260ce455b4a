import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE } from "@paykit/core"
import { DbInteger } from "@paykit/store-sql"
import { CHILD_TOKEN, type ChildServer, freePort, startChild, stopChild } from "./child-server.ts"
import { api, json, tempDataDir } from "./harness.ts"
import { startReceiver } from "../../store-sql/test/webhooks/receiver.ts"

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
/** Short, so a dead process's rows are taken over within the test. */
const LEASE_MS = 3_000
const WORKER_ENV = { PAYKIT_WORKER_LEASE_MS: String(LEASE_MS), PAYKIT_WORKER_POLL_MS: "100" }
const WEBHOOK_SECRET = "scale-out-webhook-secret-0001"
/** Every process gets the same key sealing webhook secrets, as processes sharing one PostgreSQL must. */
const WEBHOOK_SECRET_KEY = randomBytes(32).toString("hex")
const webhookEnv = (receiverUrl: string): Record<string, string> => ({
  PAYKIT_WEBHOOK_URL: receiverUrl, PAYKIT_WEBHOOK_SECRET: WEBHOOK_SECRET, PAYKIT_WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY
})

const field = (body: Record<string, unknown>, key: string): Record<string, unknown> => {
  const value = body[key]
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`no ${key} in ${JSON.stringify(body)}`)
  return value as Record<string, unknown>
}

/** A fresh schema on the test database, and the URL whose connections use it. */
const freshDatabase = async (base: string) => {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, f), PgClient.layer({ url: Redacted.make(base), maxConnections: 1 })))
  await admin((sql) => sql.unsafe(`CREATE SCHEMA ${schema}`))
  return {
    url: `${base}${base.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    query: <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      admin((sql) => Effect.andThen(sql.unsafe(`SET search_path TO ${schema}`), f(sql))),
    drop: () => admin((sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`))
  }
}

/** Starts a process on the database and waits until it listens. */
const start = async (url: string, env: Readonly<Record<string, string>> = {}): Promise<{ readonly child: ChildServer; readonly url: string }> => {
  const child = startChild({ databaseUrl: url }, await freePort(), { ...WORKER_ENV, ...env })
  return { child, url: await child.listening }
}

/** Every item of a list endpoint, walking its `after` cursors. */
const listAll = async (base: string, path: string, key: string): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const items: Array<Record<string, unknown>> = []
  let after: string | null = null
  do {
    const separator = path.includes("?") ? "&" : "?"
    const body = await json(await api(base, CHILD_TOKEN, `${path}${separator}limit=500${after === null ? "" : `&after=${after}`}`))
    items.push(...(body[key] as ReadonlyArray<Record<string, unknown>>))
    const cursors = field(field(body, "meta"), "cursors")
    after = typeof cursors["after"] === "string" ? cursors["after"] : null
  } while (after !== null)
  return items
}

/** A verified creditor with a GBP payout account and `count` subscriptions on one Bacs mandate. */
const subscriptionsThrough = async (base: string, count: number) => {
  const post = async (path: string, key: string, body: unknown) => {
    const response = await api(base, CHILD_TOKEN, path, { method: "POST", body: { [key]: body } })
    const answer = await json(response)
    if (response.status !== 201 && response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`)
    return field(answer, key)
  }
  const creditor = String((await post("/creditors", "creditors", { name: "Scale Ltd", country_code: "GB", creditor_type: "company" }))["id"])
  await post("/verification_details", "verification_details", {
    name: "Scale Ltd", company_number: "01234567", description: "Testing", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN",
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
    links: { creditor }
  })
  await post("/creditor_bank_accounts", "creditor_bank_accounts", {
    account_holder_name: "Scale Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
    set_as_default_payout_account: true, links: { creditor }
  })
  const request = String((await post("/billing_requests", "billing_requests", { mandate_request: { currency: "GBP", scheme: "bacs" }, links: { creditor } }))["id"])
  const action = (name: string, data: unknown) =>
    api(base, CHILD_TOKEN, `/billing_requests/${request}/actions/${name}`, { method: "POST", body: { data } }).then(json).then((b) => field(b, "billing_requests"))
  await action("collect_customer_details", {
    customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
    customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
  })
  await action("collect_bank_account", { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" })
  await action("confirm_payer_details", {})
  const mandate = String(field(await action("fulfil", {}), "links")["mandate_request_mandate"])
  const subscriptions: Array<string> = []
  for (let i = 0; i < count; i++) {
    const interval_unit = i % 2 === 0 ? "weekly" : "monthly"
    subscriptions.push(String((await post("/subscriptions", "subscriptions", { amount: 1000 + i * 100, currency: "GBP", interval_unit, links: { mandate } }))["id"]))
  }
  return { creditor, subscriptions, mandate }
}

const advance = async (base: string, by: string, output?: () => string) => {
  const response = await api(base, CHILD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by } })
  if (response.status !== 200 && output !== undefined) console.log(await response.text(), output().slice(-6000))
  expect(response.status).toBe(200)
}

const LeaseRow = Schema.Struct({ kind: Schema.String, key: Schema.String, due_at: DbInteger, lease_owner: Schema.NullOr(Schema.String), lease_until: Schema.NullOr(DbInteger) })
type LeaseRowType = typeof LeaseRow.Type
type Database = Awaited<ReturnType<typeof freshDatabase>>

/** The rows leased by the process `pid` (its owner name is `host:pid:random`). */
const leasedBy = (database: Database, pid: number | undefined) =>
  database.query((sql) =>
    Effect.flatMap(sql`SELECT kind, key, due_at, lease_owner, lease_until FROM due_work WHERE lease_owner LIKE ${`%:${pid ?? -1}:%`}`, Schema.decodeUnknownEffect(Schema.Array(LeaseRow))))

/** How long the receiver takes to answer while a process is to be caught holding a delivery. */
const SLOW_ANSWER_MS = 2_000

/**
 * Makes events through `base` while the receiver answers slowly, until `victim`'s worker is seen
 * holding a lease (a delivery it is sending), then kills it with SIGKILL. Answers what it held.
 */
const killHoldingALease = async (database: Database, base: string, mandate: string, victim: ChildServer, receiver: Awaited<ReturnType<typeof startReceiver>>) => {
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    receiver.answer(...Array.from({ length: 3 }, () => ({ _tag: "slow", delayMs: SLOW_ANSWER_MS }) as const))
    // A subscription's "created" event: whichever process's worker pumps it first sends its delivery.
    const made = await api(base, CHILD_TOKEN, "/subscriptions", { method: "POST", body: { subscriptions: { amount: 500, currency: "GBP", interval_unit: "monthly", links: { mandate } } } })
    if (made.status !== 201) throw new Error(`a subscription to catch a lease: ${made.status} ${await made.text()}`)
    const deadline = Date.now() + SLOW_ANSWER_MS
    while (Date.now() < deadline) {
      const held = await leasedBy(database, victim.child.pid)
      if (held.length > 0) {
        victim.child.kill("SIGKILL")
        await victim.exited
        receiver.healthy()
        return held
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  throw new Error("the process to kill never held a lease")
}

/**
 * A fresh schema for one describe block: the processes and clean-ups the block registers are ended
 * after it, then the schema is dropped.
 */
const onFreshDatabase = () => {
  let database: Database | undefined
  const children: Array<ChildServer> = []
  const cleanups: Array<() => Promise<void>> = []
  beforeAll(async () => {
    database = await freshDatabase(databaseUrl ?? "")
  }, 60_000)
  afterAll(async () => {
    for (const child of children) await stopChild(child, "SIGKILL")
    for (const cleanup of cleanups) await cleanup()
    await database?.drop()
  }, 60_000)
  return {
    children,
    cleanups,
    database: (): Database => {
      if (database === undefined) throw new Error("the database is made before the tests")
      return database
    }
  }
}

describe.skipIf(databaseUrl === undefined)("three server processes on one PostgreSQL database", () => {
  const fresh = onFreshDatabase()
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
  const { children, cleanups, database: db } = onFreshDatabase()

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
  const { children, database: db } = onFreshDatabase()

  it("ten P1D advances at once leave the clock ten days on", { timeout: 180_000 }, async () => {
    const env = { PAYKIT_WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY }
    const a = await start(db().url, env)
    const b = await start(db().url, env)
    children.push(a.child, b.child)
    const offsetOf = async () => Number(field(await json(await api(a.url, CHILD_TOKEN, "/sandbox/simulator/clock")), "simulator_clock")["offset_ms"])
    const before = await offsetOf()
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      api(i % 2 === 0 ? a.url : b.url, CHILD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })))
    expect(answers.map((response) => response.status)).toEqual(Array.from({ length: 10 }, () => 200))
    const offsets = await Promise.all(answers.map(async (response) => Number(field(await json(response), "simulator_clock")["offset_ms"])))
    // Each answer saw its own day added: ten distinct offsets, the last ten days on.
    expect(new Set(offsets.map((o) => Math.round((o - before) / 86_400_000))).size).toBe(10)
    const days = (await offsetOf() - before) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(10)
    expect(days).toBeLessThan(10.01)
  })
})

describe.skipIf(databaseUrl === undefined)("a process killed holding webhook deliveries, on the default lease", () => {
  const { children, cleanups, database: db } = onFreshDatabase()

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
