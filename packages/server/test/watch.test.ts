import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, fulfilledMandateRequest, json, localClient, startServer, type TestServer } from "./harness.ts"

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
    const { status, mandate } = await fulfilledMandateRequest(client)
    expect(status).toBe("fulfilled")
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
