import { Layer, ManagedRuntime, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { GoCardlessClient } from "gocardless-nodejs"
import { PAYOUT_HOLD_REASONS, payoutArrivalDate } from "@paykit/engine"
import type { Currency, LocalDate } from "@paykit/core"
import { serverUrl } from "@paykit/http"
import { makeServer } from "../src/index.ts"
import { api, fulfilledMandateRequest, json, localClient, startServer, tempDataDir, testConfig, testLogs, type TestServer } from "./harness.ts"

/**
 * A fresh sandbox server as a new user meets it: its first creditor is ready to be paid out, so
 * a mandate and a payment made through the official client reach `paid_out` by advancing alone;
 * payouts arrive on business days; a webhook endpoint is dated on its organisation's clock.
 */

const advance = async (server: TestServer, token: string, by: string) => {
  const response = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by } })
  expect(response.status).toBe(200)
  return (await json(response))["simulator_clock"] as { readonly now: string }
}

describe("a fresh sandbox server", () => {
  let server: TestServer
  let token: string
  let client: GoCardlessClient
  beforeAll(async () => {
    server = await startServer()
    token = server.boot.accessToken ?? ""
    client = localClient(token, server.url)
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  it("starts with a verified creditor and a verified GBP payout account", async () => {
    const creditor = await client.creditors.find(server.boot.creditor ?? "")
    expect(creditor.verification_status).toBe("successful")
    const accountId = creditor.links?.default_gbp_payout_account ?? ""
    expect(accountId).not.toBe("")
    const account = await client.creditorBankAccounts.find(accountId)
    expect(account).toMatchObject({ currency: "GBP", enabled: true })
  })

  it("pays out a payment made through the official client by advancing alone", { timeout: 120_000 }, async () => {
    const { mandate } = await fulfilledMandateRequest(client)
    const payment = await client.payments.create({ amount: 2500, currency: "GBP", links: { mandate } } as never)
    let status = String(payment.status)
    for (let day = 0; day < 20 && status !== "paid_out"; day++) {
      await advance(server, token, "P1D")
      status = String((await client.payments.find(payment.id ?? "")).status)
    }
    expect(status).toBe("paid_out")
    const paid = await client.payments.find(payment.id ?? "")
    // The payout is sent on the next daily run.
    await advance(server, token, "P1D")
    const payout = await client.payouts.find(paid.links?.payout ?? "")
    expect(payout.status).toBe("paid")
    const weekday = new Date(`${String(payout.arrival_date)}T00:00:00Z`).getUTCDay()
    expect([0, 6]).not.toContain(weekday)
  })

  it("dates a webhook endpoint on its organisation's clock", async () => {
    const clock = await advance(server, token, "P7D")
    const response = await api(server.url, token, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: "http://127.0.0.1:9/hooks" } } })
    expect(response.status).toBe(201)
    const created = String(((await json(response))["webhook_endpoints"] as { created_at: string }).created_at)
    expect(Date.parse(created)).toBeGreaterThanOrEqual(Date.parse(clock.now) - 1_000)
  })

  // Last: a second creditor means a mandate must name its creditor from here on.
  it("says why a new creditor's payouts are held, at GET /creditors/{id}/payout_holds, and the client still reads the creditor", { timeout: 120_000 }, async () => {
    const holdsOf = async (creditor: string) => {
      const response = await api(server.url, token, `/creditors/${creditor}/payout_holds`)
      return { status: response.status, body: await json(response) }
    }
    const creditor = await client.creditors.create({ name: "Held Gym", country_code: "GB", creditor_type: "company" } as never)
    const creditorId = creditor.id ?? ""
    const customer = await client.customers.create({ given_name: "Ada", family_name: "Lovelace", email: "ada@example.com" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id ?? "" }
    } as never)
    const mandate = await client.mandates.create({ links: { customer_bank_account: account.id ?? "", creditor: creditorId } } as never)
    await client.payments.create({ amount: 1500, currency: "GBP", links: { mandate: mandate.id ?? "" } } as never)
    expect(await holdsOf(creditorId)).toEqual({ status: 200, body: { payout_holds: [] } })
    for (let day = 0; day < 8; day++) await advance(server, token, "P1D")
    const held = await holdsOf(creditorId)
    expect(held.status).toBe(200)
    expect(held.body["payout_holds"]).toEqual([
      { currency: "GBP", reason: "creditor_not_verified", description: PAYOUT_HOLD_REASONS.creditor_not_verified, amount: expect.any(Number), links: { creditor: creditorId } }
    ])
    expect(await holdsOf(server.boot.creditor ?? "")).toEqual({ status: 200, body: { payout_holds: [] } })
    expect((await holdsOf("CR000000000000")).status).toBe(404)
    expect((await client.creditors.find(creditorId)).verification_status).not.toBe("successful")
  })
})

describe("a payout's arrival date", () => {
  const cases: ReadonlyArray<readonly [Currency, string, string]> = [
    ["GBP", "2026-11-28", "2026-11-30"], // Saturday to Monday
    ["GBP", "2026-11-29", "2026-11-30"], // Sunday to Monday
    ["GBP", "2026-12-25", "2026-12-29"], // Christmas on a Friday: Boxing Day's holiday is the Monday
    ["EUR", "2026-11-27", "2026-11-27"], // a Friday stays
    ["USD", "2026-11-26", "2026-11-27"] // Thanksgiving
  ]
  it.each(cases)("in %s sent on %s is %s", (currency, sent, arrives) => {
    expect(payoutArrivalDate(currency, sent as LocalDate)).toBe(arrives)
  })
})

describe("the endpoint PAYKIT_WEBHOOK_URL names, made at a restart after an advance", () => {
  it("is dated on the organisation's clock, not real time", { timeout: 120_000 }, async () => {
    const data = tempDataDir()
    const key = randomBytes(32).toString("hex")
    try {
      const first = await startServer({ dataDir: data.dir, secretKey: key })
      const token = first.boot.accessToken ?? ""
      const clock = await advance(first, token, "P7D")
      await first.close()
      const config = testConfig({ dataDir: data.dir, secretKey: key })
      const webhooks = { endpoint: Option.some({ url: "http://127.0.0.1:9/hooks", secret: Redacted.make("restart-webhook-secret-0001") }), secretKey: Option.some(Redacted.make(key)), keyDir: undefined }
      const runtime = ManagedRuntime.make(makeServer({ ...config, webhooks }).pipe(Layer.provide(testLogs([]))))
      try {
        const url = await runtime.runPromise(serverUrl)
        const listed = await json(await api(url, token, "/webhook_endpoints"))
        const [endpoint] = listed["webhook_endpoints"] as ReadonlyArray<{ readonly created_at: string }>
        expect(Date.parse(endpoint?.created_at ?? "")).toBeGreaterThanOrEqual(Date.parse(clock.now))
      } finally {
        await runtime.dispose()
      }
    } finally {
      data.remove()
    }
  })
})
