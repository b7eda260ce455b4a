import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * What the sandbox clock is for: a developer signs a payer up through the official client, sets a
 * subscription going, advances the clock, and watches the mandate activate and the payments collect.
 */
describe("watching a subscription charge", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it("a billing request to a mandate, a monthly subscription, 70 days later: two payments collected", async () => {
    const token = server.boot.accessToken ?? ""
    const client = localClient(token, server.url)
    const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } })
    const id = request.id ?? ""
    await client.billingRequests.collectCustomerDetails(id, {
      customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
      customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
    })
    await client.billingRequests.collectBankAccount(id, { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" })
    await client.billingRequests.confirmPayerDetails(id, {})
    const fulfilled = await client.billingRequests.fulfil(id, {})
    const mandate = fulfilled.mandate_request?.links?.mandate ?? ""
    expect(fulfilled.status).toBe("fulfilled")
    const subscription = await client.subscriptions.create({ amount: 1500, currency: "GBP", interval_unit: "monthly", name: "Membership", links: { mandate } })
    expect((await client.mandates.find(mandate)).status).toBe("pending_submission")

    for (let week = 0; week < 10; week++) {
      expect((await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P7D" } })).status).toBe(200)
    }

    expect((await client.mandates.find(mandate)).status).toBe("active")
    const payments = (await client.payments.list({ subscription: subscription.id ?? "" })).payments
    expect(payments.length).toBeGreaterThanOrEqual(2)
    expect(payments.filter((p) => p.status === "confirmed" || p.status === "paid_out").length).toBeGreaterThanOrEqual(2)
    const clock = (await json(await api(server.url, token, "/sandbox/simulator/clock")))["simulator_clock"] as { offset: string }
    expect(clock.offset).toBe("P70D")
  })
})
