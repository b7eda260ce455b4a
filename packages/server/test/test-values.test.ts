import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * docs/test-values.md: an outcome a sandbox test value chose says so in its event's
 * `details.description`, naming the value; an ordinary payment's events name none.
 */
describe("sandbox test values name themselves in the events they cause", () => {
  let server: TestServer
  let client: GoCardlessClient
  let creditor = ""

  beforeAll(async () => {
    server = await startServer()
    client = localClient(server.boot.accessToken ?? "", server.url)
    creditor = server.boot.creditor ?? ""
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  const mandateOf = async (holder: string) => {
    const customer = await client.customers.create({ email: "payer@example.com", given_name: "Pat", family_name: "Payer", country_code: "GB" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: holder, account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
    } as never)
    return (await client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account.id, creditor } } as never)).id ?? ""
  }
  const descriptions = async (payment: string) =>
    (await client.events.list({ payment, resource_type: "payments" } as never)).events.map((e) => `${String(e.action)}: ${String(e.details?.description)}`)

  it("an amount ending in 91, a holder named chargeback, a mandate holder named mandate fail; and a plain payment", { timeout: 90_000 }, async () => {
    const plain = await mandateOf("Ada Lovelace")
    const disputed = await mandateOf("Carl Chargeback")
    const refused = await mandateOf("Mandate Failington")
    const failing = await client.payments.create({ amount: "1091", currency: "GBP", links: { mandate: plain } } as never)
    const collected = await client.payments.create({ amount: "1000", currency: "GBP", links: { mandate: plain } } as never)
    const chargedBack = await client.payments.create({ amount: "1000", currency: "GBP", links: { mandate: disputed } } as never)
    const advanced = await api(server.url, server.boot.accessToken, "/sandbox/simulator/advance", { method: "POST", body: { by: "P20D" } })
    expect(advanced.status).toBe(200)

    expect(await descriptions(failing.id ?? "")).toContain(
      "failed: The customer's account had insufficient funds to make this payment. (sandbox test value: amount ending in 91)"
    )
    expect(await descriptions(chargedBack.id ?? "")).toContain(
      "charged_back: The customer has disputed having authorised you to take this payment. (sandbox test value: account holder name containing \"chargeback\")"
    )
    const mandateEvents = (await client.events.list({ mandate: refused, resource_type: "mandates" } as never)).events
    expect(mandateEvents.map((e) => String(e.details?.description))).toContain(
      "The bank account details for this mandate are invalid. (sandbox test value: account holder name containing \"mandate fail\")"
    )
    const ordinary = await descriptions(collected.id ?? "")
    expect(ordinary.some((line) => line.startsWith("confirmed:"))).toBe(true)
    expect(ordinary.filter((line) => line.includes("sandbox test value"))).toEqual([])
  })
})
