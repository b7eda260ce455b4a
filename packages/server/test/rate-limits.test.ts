import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE } from "@paykit/core"
import { serverUrl } from "@paykit/http"
import { makeServer } from "../src/index.ts"
import { api, json, startServer, testConfig, testLogs, type TestServer } from "./harness.ts"

/**
 * Rate limits on real time, in the database: a sandbox advance does not reset a window (it did
 * when windows ran on the sandbox clock), and two server processes on one PostgreSQL database
 * share the windows (each kept its own: 600 outbound POSTs a minute were accepted against 300).
 * Idempotency keys, already in SQL, hold across the two as well.
 */

const LIMIT = OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE
const TOKEN = "sandbox_rate_limit_test_token_01"

/** One outbound POST; its body is refused after the limit is counted, which is all the test needs. */
const outboundPost = (url: string) => api(url, TOKEN, "/outbound_payments", { method: "POST", body: {} })

/** `count` outbound POSTs, a few at a time; answers their statuses. */
const burst = async (urls: ReadonlyArray<string>, count: number): Promise<ReadonlyArray<number>> => {
  const statuses: Array<number> = []
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => outboundPost(urls[(i + j) % urls.length] ?? "")))
    statuses.push(...batch.map((response) => response.status))
  }
  return statuses
}

/** The minute's window must not end during the test: wait for a fresh one if fewer than 25 s are left. */
const freshWindow = async () => {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 25_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

describe("rate limits on real time", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ sandboxToken: TOKEN })
  }, 60_000)
  afterAll(() => server.close())

  it("a sandbox advance does not reset the outbound window", { timeout: 120_000 }, async () => {
    await freshWindow()
    const statuses = await burst([server.url], LIMIT)
    expect(statuses.filter((s) => s === 429)).toEqual([])
    expect((await outboundPost(server.url)).status).toBe(429)
    const advanced = await api(server.url, TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by: "PT2M" } })
    expect(advanced.status).toBe(200)
    expect((await outboundPost(server.url)).status).toBe(429)
  })
})

const databaseUrl = process.env["DATABASE_URL"]

describe.skipIf(databaseUrl === undefined)("two server processes on one PostgreSQL database", () => {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(databaseUrl ?? ""), maxConnections: 1 })))
  const runtimes: Array<{ readonly dispose: () => Promise<void> }> = []
  const urls: Array<string> = []
  beforeAll(async () => {
    await admin(`CREATE SCHEMA ${schema}`)
    const base = databaseUrl ?? ""
    const scoped = `${base}${base.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`
    for (let i = 0; i < 2; i++) {
      // One webhook key for both: a process with another is refused at start.
      const config = { ...testConfig({ sandboxToken: TOKEN, secretKey: "7a".repeat(32) }), database: { _tag: "Postgres" as const, url: Redacted.make(scoped) } }
      const runtime = ManagedRuntime.make(makeServer(config).pipe(Layer.provide(testLogs([]))))
      urls.push(await runtime.runPromise(serverUrl))
      runtimes.push(runtime)
    }
  }, 120_000)
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.dispose()
    await admin(`DROP SCHEMA ${schema} CASCADE`)
  })

  it("refuse together past 300 outbound POSTs a minute", { timeout: 120_000 }, async () => {
    await freshWindow()
    const statuses = await burst(urls, LIMIT)
    expect(statuses.filter((s) => s === 429)).toEqual([])
    expect((await outboundPost(urls[0] ?? "")).status).toBe(429)
    expect((await outboundPost(urls[1] ?? "")).status).toBe(429)
  })

  it("an idempotency key used through one is a conflict naming the same resource through the other", { timeout: 60_000 }, async () => {
    const create = (url: string) =>
      api(url, TOKEN, "/creditors", {
        method: "POST",
        headers: { "idempotency-key": "shared-key-1" },
        body: { creditors: { name: "Shared Ltd", country_code: "GB", creditor_type: "company" } }
      })
    const first = await create(urls[0] ?? "")
    expect(first.status).toBe(201)
    const id = ((await json(first))["creditors"] as { id: string }).id
    const second = await create(urls[1] ?? "")
    expect(second.status).toBe(409)
    const error = (await json(second))["error"] as { errors: ReadonlyArray<{ links?: { conflicting_resource_id?: string } }> }
    expect(error.errors[0]?.links?.conflicting_resource_id).toBe(id)
  })
})
