import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { collectPayerAccount, collectPayerDetails, localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"

/**
 * Issue 18's flows on the composed server, stored in SQL (PGlite, and PostgreSQL when
 * `DATABASE_URL` names one), through the official client: a redirect flow from creation to its
 * mandate, a billing request flow, a template listed by its indexed filter, a verification.
 */
describe.each(SERVER_DATABASES)("flows on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  beforeAll(async () => {
    server = await start()
    client = localClient(server.boot.accessToken ?? "", server.url)
  })
  afterAll(async () => {
    await server.close()
  })

  it("a redirect flow completes into customer, bank account and mandate once its billing request has the payer's details", async () => {
    const flow = await client.redirectFlows.create({ session_token: "SESS_sql", success_redirect_url: "https://acme.example/done", scheme: "bacs" })
    const br = flow.links?.billing_request ?? ""
    await collectPayerDetails(client, br)
    await collectPayerAccount(client, br)
    await client.billingRequests.confirmPayerDetails(br, {})
    const completed = await client.redirectFlows.complete(flow.id ?? "", { session_token: "SESS_sql" })
    expect((await client.mandates.find(completed.links?.mandate ?? "")).links?.customer).toBe(completed.links?.customer)
    expect((await client.redirectFlows.find(flow.id ?? "")).links?.mandate).toBe(completed.links?.mandate)
    const verification = await client.bankAccountHolderVerifications.create({ type: "confirmation_of_payee", links: { bank_account: completed.links?.customer_bank_account ?? "" } })
    expect((await client.bankAccountHolderVerifications.find(verification.id)).result).toBe("full_match")
  })

  it("create_with_actions is one unit of work in SQL: an action refused leaves no billing request, customer or account", async () => {
    const customers = async () => (await client.customers.list()).customers.length
    const before = { requests: (await client.billingRequests.list()).billing_requests.length, customers: await customers() }
    const refused = await client.billingRequestWithActions.createWithActions({
      mandate_request: { currency: "GBP", scheme: "bacs" },
      payment_request: { amount: 1000, currency: "GBP", scheme: "faster_payments" },
      actions: {
        collect_customer_details: {
          customer: { email: "grace@example.com", given_name: "Grace", family_name: "Hopper" },
          customer_billing_detail: { address_line1: "1 High Street", city: "London", postal_code: "EC1A 1AA", country_code: "GB" }
        },
        collect_bank_account: { account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB" },
        confirm_payer_details: {},
        // No institution was selected: the bank authorisation is refused, after every other action ran.
        create_bank_authorisation: true
      }
    }).then(() => "created", (error: unknown) => (error as { errors?: ReadonlyArray<{ reason?: string }> }).errors?.[0]?.reason)
    expect(refused).toBe("billing_request_action_requires_actions")
    expect((await client.billingRequests.list()).billing_requests.length).toBe(before.requests)
    expect(await customers()).toBe(before.customers)
  })

  it("a billing request flow is stored and initialised; templates are listed by payment_request_scheme", async () => {
    const br = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } })
    const flow = await client.billingRequestFlows.create({ links: { billing_request: br.id ?? "" }, lock_customer_details: true })
    expect((await client.billingRequestFlows.initialise(flow.id)).lock_customer_details).toBe(true)
    const fps = await client.billingRequestTemplates.create({ name: "Deposit", payment_request_amount: "1000", payment_request_currency: "GBP", payment_request_scheme: "faster_payments" })
    await client.billingRequestTemplates.create({ name: "Membership", mandate_request_currency: "GBP", mandate_request_scheme: "bacs" })
    const listed = await client.billingRequestTemplates.list({ payment_request_scheme: "faster_payments" })
    expect(listed.billing_request_templates.map((t) => t.id)).toEqual([fps.id])
  })
})
