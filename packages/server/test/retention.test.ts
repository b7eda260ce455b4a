import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_EVENT_RETENTION_DAYS } from "@paykit/engine"
import { RequestLogStore } from "@paykit/http"
import { api, flushedRequestLog, json, SERVER_DATABASES, type TestServer } from "./harness.ts"

/**
 * Retention as the server runs it: the `retention` due row of each organisation prunes, on that
 * organisation's clock, events and webhook records older than `PAYKIT_EVENT_RETENTION_DAYS`
 * (default 90) and idempotency keys past their 30 days, and the stored request log as the events
 * (on PGlite in its own database, read here through its store). A sandbox advance runs it like any row.
 */

const eventIdsOf = async (server: TestServer, token: string) =>
  ((await json(await api(server.url, token, "/events?limit=500")))["events"] as ReadonlyArray<{ id: string }>).map((e) => e.id)

const keysOf = (server: TestServer) =>
  server.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ key: string }>`SELECT key FROM idempotency_keys ORDER BY key`))

describe.each(SERVER_DATABASES)("retention on %s", (_name, start) => {
  let server: TestServer
  let token: string
  beforeAll(async () => {
    server = await start()
    token = server.boot.accessToken ?? ""
  }, 60_000)
  afterAll(() => server.close())

  const logged = (requestId: string) =>
    server.runtime.runPromise(Effect.flatMap(RequestLogStore, (store) => store.find(server.boot.organisation.id, requestId)))

  it("a key expires after 30 days, an event and a logged request after the retention period, each no earlier", { timeout: 120_000 }, async () => {
    const creditor = { creditors: { name: "Retention Ltd", country_code: "GB", creditor_type: "company" } }
    const created = await api(server.url, token, "/creditors", { method: "POST", body: creditor, headers: { "idempotency-key": "retention-key-1" } })
    expect(created.status).toBe(201)
    const requestId = created.headers.get("x-request-id") ?? ""
    await flushedRequestLog(server)
    expect((await logged(requestId))?.path).toBe("/creditors")
    const first = await eventIdsOf(server, token)
    expect(first.length).toBeGreaterThan(0)

    const advance = async (by: string) =>
      expect((await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by } })).status).toBe(200)
    await advance("P29D")
    expect((await keysOf(server)).map((r) => r.key)).toEqual(["retention-key-1"])
    await advance("P2D")
    expect(await keysOf(server)).toEqual([])

    await advance(`P${DEFAULT_EVENT_RETENTION_DAYS - 33}D`)
    expect(await eventIdsOf(server, token)).toEqual(expect.arrayContaining(first))
    expect(await logged(requestId)).toBeDefined()
    await advance("P4D")
    expect(await logged(requestId)).toBeUndefined()
    const left = await eventIdsOf(server, token)
    expect(left.filter((id) => first.includes(id))).toEqual([])
  })
})
