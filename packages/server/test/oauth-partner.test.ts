import { OrganisationId } from "@paykit/core"
import { Effect, Schema } from "effect"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BillingRequests, Creditors, REQUEST_BODIES } from "@paykit/engine"
import { api, collectPayerDetails, fulfilledMandateRequest, localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"
import { approvePaymentPages, connectUrlOf, consent, errorOf, exchange, type RegisteredApp, registerApp, type TokenAnswer } from "./oauth-support.ts"

/**
 * Issue 20 end to end: a merchant signs up through a partner app's consent page; the app's token
 * meets the restricted endpoints, collects a payment with an `app_fee`, and the fee leaves the
 * merchant's payout and reaches the app's organisation in a partner payout once the clocks pass.
 */

const BANK_ACCOUNT = { account_holder_name: "Holder Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP", set_as_default_payout_account: true }

describe.each(SERVER_DATABASES)("a partner app on %s", (_name, start) => {
  let server: TestServer
  let own: GoCardlessClient
  let app: RegisteredApp
  let merchant: TokenAnswer
  let asApp: GoCardlessClient
  beforeAll(async () => {
    server = await start()
    const token = server.boot.accessToken ?? ""
    own = localClient(token, server.url)
    // The partner is the first organisation: its creditor receives the partner payouts.
    const partnerCreditor = server.boot.creditor ?? ""
    await own.creditorBankAccounts.create({ ...BANK_ACCOUNT, links: { creditor: partnerCreditor } } as never)
    await own.scenarioSimulators.run("creditor_verification_status_successful", { links: { resource: partnerCreditor } })
    app = await registerApp(server, token)
    const connect = await connectUrlOf(server)
    const location = await consent(connect, app, { decision: "allow", account: "signup", organisation_name: "Merchant Ltd", country_code: "GB", email: "m@merchant.example" })
    merchant = await (await exchange(connect, app, location.searchParams.get("code") ?? "")).json() as TokenAnswer
    asApp = localClient(merchant.access_token, server.url)
  }, 60_000)
  afterAll(() => server.close())

  const call = (path: string, method = "GET", body?: unknown) => api(server.url, merchant.access_token, path, { method, ...(body === undefined ? {} : { body }) })
  const approvePages = (approved: boolean) => approvePaymentPages(server, app, approved)
  /** What the app does on its own payment pages, which the operator approved for the while. */
  const onApprovedPages = async <A>(act: () => Promise<A>): Promise<A> => {
    await approvePages(true)
    try {
      return await act()
    } finally {
      await approvePages(false)
    }
  }

  it("restricted endpoints answer 403 to an app's token; the payment pages' approval opens the conditional ones only", async () => {
    const creditor = (await asApp.creditors.list()).creditors[0]?.id ?? ""
    const customer = { customers: { email: "p@example.com", given_name: "P", family_name: "Q", country_code: "GB" } }
    expect(await errorOf(await call("/creditors", "POST", { creditors: { name: "X", country_code: "GB", creditor_type: "company" } }))).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect(await errorOf(await call(`/creditors/${creditor}`, "PUT", { creditors: { name: "Y" } }))).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect(await errorOf(await call("/creditor_bank_accounts"))).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect(await errorOf(await call("/customers", "POST", customer))).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect(await errorOf(await call("/mandates", "POST", { mandates: {} }))).toEqual({ status: 403, reason: "restricted_for_apps" })
    // Reads and the organisation's own token are not restricted.
    expect((await call("/customers")).status).toBe(200)
    expect((await api(server.url, server.boot.accessToken, "/creditor_bank_accounts")).status).toBe(200)

    await approvePages(true)
    expect((await call("/customers", "POST", customer)).status).toBe(201)
    expect(await errorOf(await call("/creditors", "POST", { creditors: { name: "X", country_code: "GB", creditor_type: "company" } }))).toEqual({ status: 403, reason: "restricted_for_apps" })
    await approvePages(false)
  })

  it("an app fee: at most 50%, only from an app's token, deducted from the merchant's payout and paid to the app in a partner payout", async () => {
    const creditor = (await asApp.creditors.list()).creditors[0]?.id ?? ""
    // The merchant's payout account: an endpoint restricted for apps, so the merchant's own setup (in process).
    await server.runtime.runPromise(Effect.gen(function*() {
      const command = yield* Effect.orDie(Schema.decodeUnknownEffect(REQUEST_BODIES.creditor_bank_accounts.create)({ ...BANK_ACCOUNT, links: { creditor } }))
      yield* Effect.orDie((yield* Creditors).createBankAccount(OrganisationId(merchant.organisation_id), command))
    }) as unknown as Effect.Effect<void>)
    await asApp.scenarioSimulators.run("creditor_verification_status_successful", { links: { resource: creditor } })
    const { mandate } = await onApprovedPages(() => fulfilledMandateRequest(asApp))

    const tooMuch = await call("/payments", "POST", { payments: { amount: 1000, currency: "GBP", app_fee: 501, links: { mandate } } })
    expect(tooMuch.status).toBe(422)
    const fromOwnToken = await api(server.url, server.boot.accessToken, "/payments", { method: "POST", body: { payments: { amount: 1000, currency: "GBP", app_fee: 10, links: { mandate } } } })
    expect(fromOwnToken.status).toBe(422)
    const payment = await asApp.payments.create({ amount: 1000, currency: "GBP", app_fee: 500, links: { mandate } } as never)
    expect(payment.amount).toBe(1000)

    for (let day = 0; day < 12; day++) {
      expect((await call("/sandbox/simulator/advance", "POST", { by: "P1D" })).status).toBe(200)
    }
    const paid = await asApp.payments.find(payment.id ?? "")
    expect(paid.status).toBe("paid_out")
    const items = (await asApp.payoutItems.list({ payout: paid.links?.payout ?? "" })).payout_items
    expect(Number(items.find((i) => i.type === "app_fee")?.amount)).toBe(-500)

    // The partner's clock: its daily runs assemble the fees of earlier days into a partner payout.
    for (let day = 0; day < 14; day++) {
      expect((await api(server.url, server.boot.accessToken, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })).status).toBe(200)
    }
    const partnerPayouts = (await own.payouts.list({ payout_type: "partner" } as never)).payouts
    expect(partnerPayouts.map((p) => [p.amount, p.currency])).toEqual([[500, "GBP"]])
  }, 120_000)

  it("a billing request the app created pays its app fee to the app, though the payer fulfils it on the hosted pages", async () => {
    const request = await asApp.billingRequests.create({ payment_request: { amount: 800, currency: "GBP", app_fee: 200, description: "Fee split" } } as never)
    const id = request.id ?? ""
    const authorisation = await onApprovedPages(async () => {
      await collectPayerDetails(asApp, id)
      const institution = (await asApp.institutions.list({ country_code: "GB" } as never)).institutions[0]
      await asApp.billingRequests.selectInstitution(id, { institution: institution?.id ?? "", country_code: "GB" } as never)
      return await asApp.bankAuthorisations.create({ links: { billing_request: id } } as never)
    })
    // The payer at their bank (the sandbox's bank), then the hosted page's fulfilment: no app calls.
    for (const action of ["visit", "authorise"]) {
      expect((await call(`/sandbox/bank_authorisations/${authorisation.id ?? ""}/actions/${action}`, "POST")).status).toBeLessThan(300)
    }
    const ready = await asApp.billingRequests.find(id)
    const fulfilled = ready.status === "fulfilled"
      ? ready
      : await server.runtime.runPromise(Effect.orDie(Effect.flatMap(BillingRequests, (b) => b.fulfil(OrganisationId(merchant.organisation_id), id))) as unknown as Effect.Effect<typeof ready>)
    const payment = fulfilled.payment_request?.links?.payment ?? ""
    for (let day = 0; day < 12; day++) {
      expect((await call("/sandbox/simulator/advance", "POST", { by: "P1D" })).status).toBe(200)
    }
    const paid = await asApp.payments.find(payment)
    expect(paid.status).toBe("paid_out")
    const items = (await asApp.payoutItems.list({ payout: paid.links?.payout ?? "" })).payout_items
    expect(Number(items.find((i) => i.type === "app_fee")?.amount)).toBe(-200)
    for (let day = 0; day < 14; day++) {
      expect((await api(server.url, server.boot.accessToken, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })).status).toBe(200)
    }
    const partnerPayouts = (await own.payouts.list({ payout_type: "partner" } as never)).payouts
    expect(partnerPayouts.map((p) => [p.amount, p.currency])).toContainEqual([200, "GBP"])
  }, 120_000)
})
