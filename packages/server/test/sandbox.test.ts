import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DbInteger } from "@paykit/store-sql"
import { issueAccessToken } from "@paykit/http"
import { Schema } from "effect"
import { SANDBOX_ADVANCE_MAX_DAYS } from "../src/index.ts"
import { api, json, startServer, tempDataDir, type TestServer } from "./harness.ts"

const DAY = 86_400_000

interface ClockView {
  readonly now: string
  readonly offset_ms: number
  readonly offset: string
  readonly next_daily_run_at: string
}

const clockOf = async (response: Response): Promise<ClockView> => {
  expect(response.status).toBe(200)
  const body = await json(response)
  return body["simulator_clock"] as ClockView
}

const storedOffset = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT offset_ms FROM organisation_clocks`
  return yield* Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ offset_ms: DbInteger })))(rows)
})

const errorReasons = async (response: Response): Promise<ReadonlyArray<unknown>> => {
  const error = (await json(response))["error"]
  return typeof error === "object" && error !== null && "errors" in error && Array.isArray(error.errors)
    ? error.errors.map((e: unknown) => (typeof e === "object" && e !== null && "reason" in e ? e.reason : undefined))
    : []
}

describe("the simulator clock", () => {
  const data = tempDataDir()
  let server: TestServer
  let token: string
  beforeAll(async () => {
    server = await startServer({ dataDir: data.dir })
    token = server.boot.accessToken ?? ""
  })
  afterAll(async () => {
    await server.close()
    data.remove()
  })

  it("starts at real time, with no offset", async () => {
    const before = Date.now()
    const clock = await clockOf(await api(server.url, token, "/sandbox/simulator/clock"))
    expect(clock.offset_ms).toBe(0)
    expect(clock.offset).toBe("PT0S")
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(clock.now)).toBeLessThanOrEqual(Date.now())
    expect(clock.next_daily_run_at).toMatch(/T06:00:00\.000Z$/)
  })

  it("advancing runs the daily jobs it crosses: a creditor in review is verified the next day", async () => {
    // A creditor made through the API needs action, as GoCardless's do (the sandbox's own starts verified).
    const made = await json(await api(server.url, token, "/creditors", { method: "POST", body: { creditors: { name: "Review Ltd", country_code: "GB", creditor_type: "company" } } }))
    const creditor = (made["creditors"] as { id: string }).id
    const detail = await api(server.url, token, "/verification_details", {
      method: "POST",
      body: {
        verification_details: {
          name: "Sandbox Creditor Ltd", company_number: "01234567", description: "Testing", address_line1: "1 High Street",
          city: "London", postal_code: "E1 6AN",
          directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
          links: { creditor }
        }
      }
    })
    expect(detail.status).toBe(201)
    const statusOf = async () => {
      const body = await json(await api(server.url, token, `/creditors/${creditor}`))
      return (body["creditors"] as { verification_status: string }).verification_status
    }
    expect(await statusOf()).toBe("in_review")

    const before = await clockOf(await api(server.url, token, "/sandbox/simulator/clock"))
    const after = await clockOf(await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } }))
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(DAY)
    expect(after.offset_ms).toBe(before.offset_ms + DAY)
    expect(after.offset).toBe("P1D")
    expect(await statusOf()).toBe("successful")
    expect(await server.runtime.runPromise(storedOffset)).toEqual([{ offset_ms: after.offset_ms }])
  })

  it("resources made after an advance carry the simulated time", async () => {
    const clock = await clockOf(await api(server.url, token, "/sandbox/simulator/clock"))
    const created = await json(await api(server.url, token, "/creditors", {
      method: "POST",
      body: { creditors: { name: "Later Ltd", country_code: "GB", creditor_type: "company" } }
    }))
    const createdAt = Date.parse((created["creditors"] as { created_at: string }).created_at)
    expect(createdAt).toBeGreaterThanOrEqual(Date.parse(clock.now))
    expect(createdAt - Date.now()).toBeGreaterThan(DAY - 60_000)
  })

  it("advances to a timestamp, and by a number of seconds", async () => {
    const now = Date.parse((await clockOf(await api(server.url, token, "/sandbox/simulator/clock"))).now)
    const to = new Date(now + 3 * DAY).toISOString()
    const moved = await clockOf(await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { to } }))
    expect(Date.parse(moved.now)).toBeGreaterThanOrEqual(Date.parse(to))
    const bySeconds = await clockOf(await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: 3600 } }))
    expect(Date.parse(bySeconds.now) - Date.parse(moved.now)).toBeGreaterThanOrEqual(3_600_000)
  })

  it("refuses going back, months, both fields, too far and bad JSON", async () => {
    const advance = (body: unknown) => api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body })
    for (const body of [{ to: "2020-01-01T00:00:00Z" }, { by: "P1M" }, { by: 0 }, { by: "1 day" }, { to: "2099-01-01", by: "P1D" }, { by: `P${SANDBOX_ADVANCE_MAX_DAYS + 1}D` }, {}]) {
      const response = await advance(body)
      expect(response.status, JSON.stringify(body)).toBe(422)
      expect(await errorReasons(response)).toContain("validation_failed")
    }
    const badJson = await fetch(`${server.url}/sandbox/simulator/advance`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{" })
    expect(badJson.status).toBe(400)
  })

  it("a read-only token may read the clock but not move it; no token is a 401", async () => {
    const readOnly = await server.runtime.runPromise(issueAccessToken({ id: "AT_read_only_test", organisation: server.boot.organisation.id, scope: "read_only" }))
    expect((await api(server.url, readOnly, "/sandbox/simulator/clock")).status).toBe(200)
    const refused = await api(server.url, readOnly, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })
    expect(refused.status).toBe(403)
    expect((await api(server.url, undefined, "/sandbox/simulator/clock")).status).toBe(401)
  })

  it("funds the creditor's payment account; an unknown bank authorisation is the API's 404", async () => {
    const funded = await api(server.url, token, "/sandbox/payment_accounts/fund", {
      method: "POST",
      body: { amount: 10_000, links: { creditor: server.boot.creditor } }
    })
    expect(funded.status).toBe(200)
    expect((await json(funded))["payment_accounts"]).toMatchObject({ account_balance: 10_000, currency: "GBP" })
    const missing = await api(server.url, token, "/sandbox/bank_authorisations/BAU000000000000/actions/visit", { method: "POST" })
    expect(missing.status).toBe(404)
    expect((await json(missing))["error"]).toMatchObject({ code: 404 })
  })

  it("the clock is where it was after a restart", async () => {
    const before = await clockOf(await api(server.url, token, "/sandbox/simulator/clock"))
    await server.close()
    server = await startServer({ dataDir: data.dir })
    const after = await clockOf(await api(server.url, token, "/sandbox/simulator/clock"))
    expect(after.offset_ms).toBe(before.offset_ms)
    expect(Date.parse(after.now)).toBeGreaterThanOrEqual(Date.parse(before.now))
  })
})

describe("a live server", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ mode: "live" })
  })
  afterAll(() => server.close())

  it("refuses every sandbox endpoint with 403 and runs on the real clock", async () => {
    const token = server.boot.accessToken ?? ""
    expect(server.boot.organisation.environment).toBe("live")
    for (const [method, path] of [["GET", "/sandbox/simulator/clock"], ["POST", "/sandbox/simulator/advance"], ["POST", "/sandbox/payment_accounts/fund"]] as const) {
      const response = await api(server.url, token, path, { method, ...(method === "POST" ? { body: { by: "P1D" } } : {}) })
      expect(response.status, path).toBe(403)
      expect(await errorReasons(response)).toEqual(["sandbox_only"])
    }
    expect((await api(server.url, undefined, "/sandbox/simulator/clock")).status).toBe(401)
    const created = await json(await api(server.url, token, "/creditors", {
      method: "POST",
      body: { creditors: { name: "Live Ltd", country_code: "GB", creditor_type: "company" } }
    }))
    expect(Math.abs(Date.parse((created["creditors"] as { created_at: string }).created_at) - Date.now())).toBeLessThan(60_000)
    expect(await json(await fetch(`${server.url}/`))).toMatchObject({ mode: "live", sandbox_endpoints: [] })
  })
})

describe("a store and a server of different modes", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("a live server refuses to start on a sandbox store", async () => {
    const sandbox = await startServer({ dataDir: data.dir })
    await sandbox.close()
    await expect(startServer({ mode: "live", dataDir: data.dir })).rejects.toThrow(/sandbox organisation/)
  })
})
