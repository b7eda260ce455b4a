import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect } from "vitest"
import { DbInteger } from "@paykit/store-sql"
import { CHILD_TOKEN, type ChildServer, freePort, startChild, stopChild } from "./child-server.ts"
import { api, json, withSettings } from "./harness.ts"
import type { startReceiver } from "../../store-sql/test/webhooks/receiver.ts"

/**
 * What the scale-out suites share (`scale-out.test.ts` on PostgreSQL, `citus-scale-out.test.ts` on
 * Citus): server processes in child processes on one fresh schema, the sandbox organisation's
 * subscriptions, advances, and the leases a process holds.
 */

/** Short, so a dead process's rows are taken over within the test. */
export const LEASE_MS = 3_000
export const WORKER_ENV = { PAYKIT_WORKER_LEASE_MS: String(LEASE_MS), PAYKIT_WORKER_POLL_MS: "100" }
export const WEBHOOK_SECRET = "scale-out-webhook-secret-0001"
/** Every process gets the same key sealing webhook secrets, as processes sharing one PostgreSQL must. */
export const WEBHOOK_SECRET_KEY = randomBytes(32).toString("hex")
export const webhookEnv = (receiverUrl: string): Record<string, string> => ({
  PAYKIT_WEBHOOK_URL: receiverUrl, PAYKIT_WEBHOOK_SECRET: WEBHOOK_SECRET, PAYKIT_WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY
})

export const field = (body: Record<string, unknown>, key: string): Record<string, unknown> => {
  const value = body[key]
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`no ${key} in ${JSON.stringify(body)}`)
  return value as Record<string, unknown>
}

/**
 * A fresh schema on the test database, and the URL whose connections use it; `on(node)` is that
 * URL through another node of the same database (a Citus worker's address), and `settings` more
 * settings every connection starts with (Citus's shard count).
 */
export const freshDatabase = async (base: string, settings: Readonly<Record<string, string>> = {}) => {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, f), PgClient.layer({ url: Redacted.make(base), maxConnections: 1 })))
  await admin((sql) => sql.unsafe(`CREATE SCHEMA ${schema}`))
  const on = (node: string) => withSettings(node, { ...settings, search_path: schema })
  return {
    url: on(base),
    on,
    query: <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      admin((sql) => Effect.andThen(sql.unsafe(`SET search_path TO ${schema}`), f(sql))),
    drop: () => admin((sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`))
  }
}

/** Starts a process on the database and waits until it listens. */
export const start = async (url: string, env: Readonly<Record<string, string>> = {}): Promise<{ readonly child: ChildServer; readonly url: string }> => {
  const child = startChild({ databaseUrl: url }, await freePort(), { ...WORKER_ENV, ...env })
  return { child, url: await child.listening }
}

/** Every item of a list endpoint, walking its `after` cursors. */
export const listAll = async (base: string, path: string, key: string, token: string = CHILD_TOKEN): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const items: Array<Record<string, unknown>> = []
  let after: string | null = null
  do {
    const separator = path.includes("?") ? "&" : "?"
    const body = await json(await api(base, token, `${path}${separator}limit=500${after === null ? "" : `&after=${after}`}`))
    items.push(...(body[key] as ReadonlyArray<Record<string, unknown>>))
    const cursors = field(field(body, "meta"), "cursors")
    after = typeof cursors["after"] === "string" ? cursors["after"] : null
  } while (after !== null)
  return items
}

/** A verified creditor with a GBP payout account and `count` subscriptions on one Bacs mandate. */
export const subscriptionsThrough = async (base: string, count: number, token: string = CHILD_TOKEN) => {
  const post = async (path: string, key: string, body: unknown) => {
    const response = await api(base, token, path, { method: "POST", body: { [key]: body } })
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
    api(base, token, `/billing_requests/${request}/actions/${name}`, { method: "POST", body: { data } }).then(json).then((b) => field(b, "billing_requests"))
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

export const advance = async (base: string, by: string, output?: () => string) => {
  const response = await api(base, CHILD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by } })
  if (response.status !== 200 && output !== undefined) console.log(await response.text(), output().slice(-6000))
  expect(response.status).toBe(200)
}

export const LeaseRow = Schema.Struct({ kind: Schema.String, key: Schema.String, due_at: DbInteger, lease_owner: Schema.NullOr(Schema.String), lease_until: Schema.NullOr(DbInteger) })
export type LeaseRowType = typeof LeaseRow.Type
export type Database = Awaited<ReturnType<typeof freshDatabase>>

/** The rows leased by the process `pid` (its owner name is `host:pid:random`). */
export const leasedBy = (database: Database, pid: number | undefined) =>
  database.query((sql) =>
    Effect.flatMap(sql`SELECT kind, key, due_at, lease_owner, lease_until FROM due_work WHERE lease_owner LIKE ${`%:${pid ?? -1}:%`}`, Schema.decodeUnknownEffect(Schema.Array(LeaseRow))))

/** How long the receiver takes to answer while a process is to be caught holding a delivery. */
export const SLOW_ANSWER_MS = 2_000

/**
 * Makes events through `base` while the receiver answers slowly, until `victim`'s worker is seen
 * holding a lease (a delivery it is sending), then kills it with SIGKILL. Answers what it held.
 */
export const killHoldingALease = async (database: Database, base: string, mandate: string, victim: ChildServer, receiver: Awaited<ReturnType<typeof startReceiver>>) => {
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
export const onFreshDatabase = (base: string, settings: Readonly<Record<string, string>> = {}) => {
  let database: Database | undefined
  const children: Array<ChildServer> = []
  const cleanups: Array<() => Promise<void>> = []
  beforeAll(async () => {
    database = await freshDatabase(base, settings)
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


/**
 * Ten P1D advances of the first start's organisation at once, alternately through `a` and `b`:
 * each answers its own day added (ten distinct offsets), and the clock ends ten days on. The
 * clock-advance lock serialises them across the processes.
 */
export const tenAdvancesAtOnce = async (a: string, b: string) => {
  const offsetOf = async () => Number(field(await json(await api(b, CHILD_TOKEN, "/sandbox/simulator/clock")), "simulator_clock")["offset_ms"])
  const before = await offsetOf()
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    api(i % 2 === 0 ? a : b, CHILD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })))
  expect(answers.map((response) => response.status)).toEqual(Array.from({ length: 10 }, () => 200))
  const offsets = await Promise.all(answers.map(async (response) => Number(field(await json(response), "simulator_clock")["offset_ms"])))
  expect(new Set(offsets.map((o) => Math.round((o - before) / 86_400_000))).size).toBe(10)
  const days = (await offsetOf() - before) / 86_400_000
  expect(days).toBeGreaterThanOrEqual(10)
  expect(days).toBeLessThan(10.01)
}
