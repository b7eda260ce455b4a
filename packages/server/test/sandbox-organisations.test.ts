import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { RequestLogStore } from "@paykit/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, flushedRequestLog, fulfilledMandateRequest, json, localClient, startPostgresServer, type StartOptions, startServer, type TestServer } from "./harness.ts"
import { connectUrlOf, connectWith, consent, registerApp } from "./oauth-support.ts"

/**
 * `/sandbox/organisations` as a test suite meets it: the operator (the server's sandbox token or
 * the admin secret) makes organisations, each with its own clock, a creditor ready to be paid out
 * and a token the official client works with; nothing of one is visible to another; each clock
 * moves alone; deleting one removes every row it owned, in every table, and leaves the other as
 * it was.
 */

const SANDBOX_TOKEN = "sandbox-organisations-token-0001"
const ADMIN_SECRET = "admin-secret-for-sandbox-organisations"
const DAY = 86_400_000

interface Made {
  readonly id: string
  readonly access_token: string
  readonly made_by_operator: boolean
  readonly clock_starts_at: string
  readonly links: { readonly creditor: string }
}

const make = async (url: string, bearer: string, body: object = {}): Promise<Made> => {
  const response = await api(url, bearer, "/sandbox/organisations", { method: "POST", body })
  expect(response.status).toBe(201)
  return (await json(response))["organisations"] as Made
}

const clockOf = async (url: string, token: string) =>
  (await json(await api(url, token, "/sandbox/simulator/clock")))["simulator_clock"] as { readonly now: string; readonly offset_ms: number }

/**
 * Rows naming the organisation in any table of the store that is keyed by organisation, by table.
 * The request log stores a request a moment after answering it: flushed first, so its rows are
 * those of the requests made so far and not a race with its timer.
 */
const rowsOf = (server: TestServer, organisation: string) =>
  flushedRequestLog(server).then(() => server.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = yield* sql<{ table_name: string; column_name: string }>`SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_name = 'organisation_id' OR column_name LIKE '%organisation_id' OR (table_name = 'organisations' AND column_name = 'id'))`
    const counts: Array<{ readonly table_name: string; readonly n: number }> = []
    for (const c of columns) {
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(c.table_name)} WHERE ${sql(c.column_name)} = ${organisation}`
      const n = rows[0]?.n ?? 0
      if (n > 0) counts.push({ table_name: c.table_name, n })
    }
    // On PGlite the log is in a database of its own (its own thread): read through its store.
    const logged = (yield* (yield* RequestLogStore).list(organisation, { limit: 1_000 })).records.length
    if (logged > 0 && !counts.some((c) => c.table_name === "request_log")) counts.push({ table_name: "request_log", n: logged })
    return counts
  })))

/** Rows of the server's tables naming the app in a column of its own (`app_id`), by table. */
const rowsPointingAt = (server: TestServer, app: string) =>
  server.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = yield* sql<{ table_name: string }>`SELECT table_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'app_id'`
    const counts: Array<{ readonly table_name: string; readonly n: number }> = []
    for (const c of columns) {
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(c.table_name)} WHERE app_id = ${app}`
      const n = rows[0]?.n ?? 0
      if (n > 0) counts.push({ table_name: c.table_name, n })
    }
    return counts
  }))

/**
 * Queues the server's own worker and pump drain while a test runs (a customer's event leaves the
 * outbox once pumped; a due row is taken when it falls due): their counts move by themselves, so
 * "untouched" is judged on the other tables.
 */
const WORK_QUEUES = new Set(["outbox", "due_work"])
const settledRowsOf = async (server: TestServer, organisation: string) =>
  (await rowsOf(server, organisation)).filter((r) => !WORK_QUEUES.has(r.table_name))

const OPERATOR: StartOptions = { sandboxToken: SANDBOX_TOKEN, adminSecret: ADMIN_SECRET }
const DATABASES: ReadonlyArray<readonly [string, () => Promise<TestServer>]> = [
  ["PGlite", () => startServer(OPERATOR)],
  ...(process.env["DATABASE_URL"] === undefined ? [] : [["PostgreSQL", () => startPostgresServer(process.env["DATABASE_URL"] ?? "", OPERATOR)] as const])
]

describe.each(DATABASES)("sandbox organisations (%s)", (_database, start) => {
  let server: TestServer
  let a: Made
  let b: Made
  beforeAll(async () => {
    server = await start()
    a = await make(server.url, SANDBOX_TOKEN, { name: "Suite A" })
    b = await make(server.url, ADMIN_SECRET, { name: "Suite B" })
  }, 120_000)
  afterAll(() => server.close())

  it("only the operator makes them: no token is 401; an organisation's own token, a wrong secret, 403", { timeout: 30_000 }, async () => {
    expect((await api(server.url, undefined, "/sandbox/organisations", { method: "POST", body: {} })).status).toBe(401)
    for (const bearer of [a.access_token, "not-the-admin-secret-at-all-0000"]) {
      const refused = await api(server.url, bearer, "/sandbox/organisations", { method: "POST", body: {} })
      expect([401, 403]).toContain(refused.status)
    }
    const byOrganisation = await api(server.url, a.access_token, "/sandbox/organisations")
    expect(byOrganisation.status).toBe(403)
    expect(((await json(byOrganisation))["error"] as { errors: Array<{ reason: string }> }).errors[0]?.reason).toBe("sandbox_operator_only")
  })

  it("each is recorded as the operator's, listed, with a verified creditor paid out to a GBP account", { timeout: 30_000 }, async () => {
    expect(a.made_by_operator).toBe(true)
    const listed = (await json(await api(server.url, SANDBOX_TOKEN, "/sandbox/organisations")))["organisations"] as Array<{ id: string; name: string }>
    expect(listed.map((o) => o.id)).toEqual(expect.arrayContaining([a.id, b.id]))
    expect(listed.map((o) => o.id)).not.toContain(server.boot.organisation.id)
    const client = localClient(a.access_token, server.url)
    const creditor = await client.creditors.find(a.links.creditor)
    expect(creditor.verification_status).toBe("successful")
    const account = await client.creditorBankAccounts.find(creditor.links?.default_gbp_payout_account ?? "")
    expect(account).toMatchObject({ currency: "GBP", enabled: true, verification_status: "successful" })
  })

  it("the official client works with each token, and nothing of one is visible to the other", { timeout: 60_000 }, async () => {
    const clientA = localClient(a.access_token, server.url)
    const clientB = localClient(b.access_token, server.url)
    const customer = await clientA.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
    expect((await clientA.customers.list()).customers.map((c) => c.id)).toEqual([customer.id])
    expect((await clientB.customers.list()).customers).toEqual([])
    await expect(clientB.customers.find(customer.id ?? "")).rejects.toMatchObject({ code: 404 })
    expect((await clientB.creditors.list()).creditors.map((c) => c.id)).toEqual([b.links.creditor])
    const serverToken = localClient(SANDBOX_TOKEN, server.url)
    expect((await serverToken.customers.list()).customers).toEqual([])
    await expect(clientA.creditors.find(b.links.creditor)).rejects.toMatchObject({ code: 404 })
  })

  it("a payer's flow and a payment in one leave every list of the other empty, and its ids unknown there", { timeout: 90_000 }, async () => {
    const clientA = localClient(a.access_token, server.url)
    const clientB = localClient(b.access_token, server.url)
    const { mandate } = await fulfilledMandateRequest(clientA)
    const payment = await clientA.payments.create({ amount: 1500, currency: "GBP", links: { mandate } })
    const events = (await clientA.events.list()).events
    expect(events.length).toBeGreaterThan(0)
    expect((await clientB.mandates.list()).mandates).toEqual([])
    expect((await clientB.payments.list()).payments).toEqual([])
    expect((await clientB.billingRequests.list()).billing_requests).toEqual([])
    expect((await clientB.customerBankAccounts.list()).customer_bank_accounts).toEqual([])
    const eventIdsB = (await clientB.events.list()).events.map((e) => e.id)
    for (const event of events) expect(eventIdsB).not.toContain(event.id)
    await expect(clientB.mandates.find(mandate)).rejects.toMatchObject({ code: 404 })
    await expect(clientB.payments.find(payment.id ?? "")).rejects.toMatchObject({ code: 404 })
    await expect(clientB.mandates.cancel(mandate, {})).rejects.toMatchObject({ code: 404 })
  })

  it("their clocks move independently, and one may start at a later instant", { timeout: 60_000 }, async () => {
    const before = await clockOf(server.url, b.access_token)
    const advanced = await json(await api(server.url, a.access_token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P3D" } }))
    expect((advanced["simulator_clock"] as { offset_ms: number }).offset_ms).toBeGreaterThanOrEqual(3 * DAY)
    const after = await clockOf(server.url, b.access_token)
    expect(after.offset_ms).toBe(before.offset_ms)
    expect(Date.parse(after.now) - Date.now()).toBeLessThan(60_000)

    const start = new Date(Date.now() + 10 * DAY).toISOString()
    const later = await make(server.url, SANDBOX_TOKEN, { start_at: start })
    expect(later.clock_starts_at).toBe(start)
    const clock = await clockOf(server.url, later.access_token)
    expect(Math.abs(Date.parse(clock.now) - Date.parse(start))).toBeLessThan(60_000)
    const past = await api(server.url, SANDBOX_TOKEN, "/sandbox/organisations", { method: "POST", body: { start_at: "2020-01-01T00:00:00.000Z" } })
    expect(past.status).toBe(422)
  })

  it("deleting one removes every row it owned, its token stops working, and the other is untouched", { timeout: 60_000 }, async () => {
    const clientB = localClient(b.access_token, server.url)
    const customerB = await clientB.customers.create({ email: "grace@example.com", given_name: "Grace", family_name: "Hopper", country_code: "GB" })
    const clockB = await clockOf(server.url, b.access_token)
    const rowsB = await settledRowsOf(server, b.id)
    expect((await rowsOf(server, a.id)).map((r) => r.table_name)).toEqual(expect.arrayContaining(["organisations", "access_tokens", "resources", "events", "due_work", "organisation_clocks", "request_log"]))

    const deleted = await api(server.url, ADMIN_SECRET, `/sandbox/organisations/${a.id}`, { method: "DELETE" })
    expect(deleted.status).toBe(200)
    expect(await rowsOf(server, a.id)).toEqual([])
    expect((await api(server.url, a.access_token, "/customers")).status).toBe(401)
    expect((await api(server.url, SANDBOX_TOKEN, `/sandbox/organisations/${a.id}`, { method: "DELETE" })).status).toBe(404)

    expect(await settledRowsOf(server, b.id)).toEqual(rowsB)
    expect((await clientB.customers.find(customerB.id ?? "")).email).toBe("grace@example.com")
    expect((await clockOf(server.url, b.access_token)).offset_ms).toBe(clockB.offset_ms)
  })

  it("deleting an organisation whose partner app others connected detaches it from them: their grants, codes and app tokens go, the app's endpoint in each is disabled", { timeout: 60_000 }, async () => {
    const owner = await make(server.url, ADMIN_SECRET, { name: "App owner" })
    const merchant = await make(server.url, ADMIN_SECRET, { name: "Merchant" })
    const app = await registerApp(server, owner.access_token, { webhook_url: "http://127.0.0.1:9/hook" })
    const connect = await connectUrlOf(server)
    const granted = await connectWith(connect, app, merchant.access_token)
    // A code given and never exchanged points at the app too.
    await consent(connect, app, { decision: "allow", account: "login", access_token: merchant.access_token, email: "owner@merchant.example" })
    expect((await api(server.url, granted.access_token, "/customers")).status).toBe(200)
    const endpoints = async () => (await json(await api(server.url, merchant.access_token, "/webhook_endpoints")))["webhook_endpoints"] as ReadonlyArray<{ readonly url: string; readonly enabled: boolean }>
    expect(await endpoints()).toEqual([expect.objectContaining({ url: "http://127.0.0.1:9/hook", enabled: true })])

    const deleted = await api(server.url, ADMIN_SECRET, `/sandbox/organisations/${owner.id}`, { method: "DELETE" })
    expect(deleted.status).toBe(200)
    expect(await rowsOf(server, owner.id)).toEqual([])
    expect(await rowsPointingAt(server, app.id)).toEqual([])
    expect((await api(server.url, granted.access_token, "/customers")).status).toBe(401)
    expect(await endpoints()).toEqual([expect.objectContaining({ url: "http://127.0.0.1:9/hook", enabled: false })])
    // The merchant itself is untouched, and can go in turn.
    expect((await api(server.url, merchant.access_token, "/customers")).status).toBe(200)
    expect((await api(server.url, ADMIN_SECRET, `/sandbox/organisations/${merchant.id}`, { method: "DELETE" })).status).toBe(200)
  })

  it("the server's own organisation cannot be deleted through it", { timeout: 30_000 }, async () => {
    const refused = await api(server.url, SANDBOX_TOKEN, `/sandbox/organisations/${server.boot.organisation.id}`, { method: "DELETE" })
    expect(refused.status).toBe(404)
    expect((await api(server.url, SANDBOX_TOKEN, "/customers")).status).toBe(200)
  })
})

describe("sandbox organisations on a live server", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ mode: "live", adminSecret: ADMIN_SECRET })
  }, 60_000)
  afterAll(() => server.close())

  it("are refused with 403", { timeout: 30_000 }, async () => {
    const refused = await api(server.url, server.boot.accessToken ?? "", "/sandbox/organisations", { method: "POST", body: {} })
    expect(refused.status).toBe(403)
    expect((await api(server.url, ADMIN_SECRET, "/sandbox/organisations", { method: "POST", body: {} })).status).toBe(401)
  })
})
