import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DISPLAY_PREFIX_LENGTH, issueAccessToken, type RequestLogRecord, RequestLogStore } from "@paykit/http"
import { api, flushedRequestLog, json, localClient, SERVER_DATABASES_AND_CITUS, startServer, type TestServer } from "./harness.ts"

/**
 * Issue 46's stored request log: every authenticated API request of an organisation is stored
 * (method, path, status, time, duration, request id, idempotency key, the token's id and prefix),
 * its bodies redacted as the API redacts them, with the resources its answer named. The redaction
 * test reads every stored row back with SQL and finds none of the secrets the requests carried.
 */

/**
 * Every stored row as text: the server database's rows as SQL reads them, and the organisation's
 * records as the store reads them (on PGlite they are in the log's own database, in its thread).
 */
const storedRows = (server: TestServer) =>
  server.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly row: string }>`SELECT row_to_json(r)::text AS row FROM request_log r`
    const page = yield* (yield* RequestLogStore).list(server.boot.organisation.id, { limit: 1_000 })
    return [...rows.map((r) => r.row), ...page.records.map((record) => JSON.stringify(record))]
  }))

const ACCOUNT_NUMBER = "55779911"
const IBAN = "DE89370400440532013000"
const ENDPOINT_SECRET = `endpoint-secret-${randomUUID()}`

describe.each(SERVER_DATABASES_AND_CITUS)("the stored request log on %s", (_name, start) => {
  let server: TestServer
  let token: string
  const tokenId = `AT_log_${randomUUID().slice(0, 8)}`
  const secrets: Array<string> = []
  let customer = ""
  let account = ""
  let failedRequestId = ""
  beforeAll(async () => {
    server = await start()
    token = await server.runtime.runPromise(issueAccessToken({ id: tokenId, organisation: server.boot.organisation.id, scope: "read_write" }))
    secrets.push(token, ACCOUNT_NUMBER, IBAN, ENDPOINT_SECRET)
    const client = localClient(token, server.url)
    customer = (await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)).id ?? ""
    account = (await client.customerBankAccounts.create({
      account_holder_name: "Ada Lovelace", account_number: ACCOUNT_NUMBER, branch_code: "200000", country_code: "GB", links: { customer }
    } as never, "log-key-1")).id ?? ""
    await client.customerBankAccounts.create({ account_holder_name: "Ada Lovelace", iban: IBAN, links: { customer } } as never)
    // Refused (no customer link): its 422 is logged too, its body still redacted.
    const refused = await api(server.url, token, "/customer_bank_accounts", { method: "POST", body: { customer_bank_accounts: { iban: IBAN } } })
    failedRequestId = refused.headers.get("x-request-id") ?? ""
    expect(refused.status).toBe(422)
    const endpoint = await json(await api(server.url, token, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: "https://example.com/hook", secret: ENDPOINT_SECRET } } }))
    expect(endpoint["webhook_endpoints"]).toBeDefined()
    const made = await json(await api(server.url, token, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: "https://example.com/hook2" } } }))
    secrets.push(String((made["webhook_endpoints"] as Record<string, unknown>)["secret"]))
    const app = await json(await api(server.url, token, "/oauth_apps", { method: "POST", body: { oauth_apps: { name: "Books", redirect_uris: ["https://books.example/callback"], webhook_url: "https://books.example/hooks" } } }))
    const registered = app["oauth_apps"] as Record<string, unknown>
    secrets.push(String(registered["client_secret"]), String(registered["webhook_secret"]))
    // Not authenticated: no organisation, nothing stored.
    expect((await api(server.url, "not-a-token", "/customers")).status).toBe(401)
    await flushedRequestLog(server)
  }, 120_000)
  afterAll(() => server.close())

  it("stores no token, account number, IBAN, endpoint secret or app secret in any row", async () => {
    const rows = await storedRows(server)
    expect(rows.length).toBeGreaterThanOrEqual(7)
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(7)
      for (const row of rows) expect(row).not.toContain(secret)
    }
    expect(rows.join("\n")).not.toContain("not-a-token")
  })

  it("keeps each request's method, path, status, duration, ids and token prefix, the account's ending and the resources it touched", async () => {
    const list = await json(await api(server.url, token, "/request_logs?limit=500"))
    const items = list["request_logs"] as ReadonlyArray<Record<string, unknown>>
    const creation = items.find((item) => item["idempotency_key"] === "log-key-1")
    expect(creation).toMatchObject({
      method: "POST", path: "/customer_bank_accounts", status: 201, token_prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), links: { access_token: tokenId }
    })
    expect(creation?.["resource_ids"]).toEqual(expect.arrayContaining([account, customer]))
    expect(typeof creation?.["duration_ms"]).toBe("number")
    const one = await json(await api(server.url, token, `/request_logs/${String(creation?.["id"])}`))
    const detail = one["request_logs"] as Record<string, unknown>
    expect(detail["request_body"]).toEqual({ customer_bank_accounts: expect.objectContaining({ account_number_ending: "11", branch_code: "200000" }) })
    expect(JSON.stringify(detail["response_body"])).toContain(account)
    // Newest first; the list's own reads are not logged.
    const times = items.map((item) => String(item["created_at"]))
    expect([...times].sort().reverse()).toEqual(times)
    expect(items.some((item) => String(item["path"]).startsWith("/request_logs"))).toBe(false)
  })

  it("filters by status class, path prefix and resource id, and pages with cursors", async () => {
    const failed = await json(await api(server.url, token, "/request_logs?status_class=4xx"))
    expect((failed["request_logs"] as ReadonlyArray<Record<string, unknown>>).map((item) => item["id"])).toEqual([failedRequestId])
    const accounts = await json(await api(server.url, token, "/request_logs?path=/customer_bank"))
    expect((accounts["request_logs"] as ReadonlyArray<Record<string, unknown>>).map((item) => item["path"])).toEqual(Array(3).fill("/customer_bank_accounts"))
    const touching = await json(await api(server.url, token, `/request_logs?resource_id=${customer}`))
    expect((touching["request_logs"] as ReadonlyArray<unknown>).length).toBe(3)
    const first = await json(await api(server.url, token, "/request_logs?limit=2"))
    const after = (first["meta"] as { cursors: { after: string } }).cursors.after
    const second = await json(await api(server.url, token, `/request_logs?limit=2&after=${encodeURIComponent(after)}`))
    const all = await json(await api(server.url, token, "/request_logs?limit=4"))
    const ids = (body: Record<string, unknown>) => (body["request_logs"] as ReadonlyArray<Record<string, unknown>>).map((item) => item["id"])
    expect([...ids(first), ...ids(second)]).toEqual(ids(all))
    expect((await api(server.url, token, "/request_logs?after=nonsense")).status).toBe(422)
  })

  it("a batch stores the records of organisations still there, as they were given, and drops a removed one's", async () => {
    const organisation = server.boot.organisation.id
    const record = (organisationOf: string, requestId: string): RequestLogRecord => ({
      organisation: organisationOf, requestId, createdAt: "2026-11-29T10:00:00.000Z", method: "POST", path: "/payments",
      query: { limit: "2", "customer": "CU1" }, status: 201, durationMs: 1.25, idempotencyKey: "key-1", tokenId, tokenPrefix: "abc",
      requestBody: { payments: { amount: 100, description: "it's \"quoted\"" } }, responseBody: null, resourceIds: ["PM1", "MD1"]
    })
    const kept = record(organisation, `RQ_kept_${randomUUID().slice(0, 8)}`)
    const dropped = record("OR_never_made_0", `RQ_gone_${randomUUID().slice(0, 8)}`)
    const found = await server.runtime.runPromise(Effect.gen(function*() {
      const store = yield* RequestLogStore
      yield* store.append([kept, dropped])
      return [yield* store.find(organisation, kept.requestId), yield* store.find(dropped.organisation, dropped.requestId)]
    }))
    expect(found).toEqual([kept, undefined])
  })

  it("answers another organisation's request id with 404", async () => {
    const made = await json(await api(server.url, server.boot.accessToken ?? "", "/sandbox/organisations", { method: "POST", body: { organisations: { name: "Another" } } }))
    const other = String((made["organisations"] as Record<string, unknown>)["access_token"])
    expect((await api(server.url, other, "/request_logs")).status).toBe(200)
    expect((await api(server.url, other, `/request_logs/${failedRequestId}`)).status).toBe(404)
  })
})

describe("PAYKIT_REQUEST_LOG=off", () => {
  it("stores nothing", { timeout: 60_000 }, async () => {
    const server = await startServer({ requestLog: "off" })
    try {
      expect((await api(server.url, server.boot.accessToken ?? "", "/customers")).status).toBe(200)
      await flushedRequestLog(server)
      expect(await storedRows(server)).toEqual([])
    } finally {
      await server.close()
    }
  })
})
