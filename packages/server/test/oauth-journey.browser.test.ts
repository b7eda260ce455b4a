import { OrganisationId } from "@paykit/core"
import { Effect, Schema } from "effect"
import * as gocardless from "gocardless-nodejs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Creditors, REQUEST_BODIES } from "@paykit/engine"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { type Browser, launchBrowser } from "./browser.ts"
import { api, fulfilledMandateRequest, localClient, startServer, type TestServer } from "./harness.ts"
import { approvePaymentPages, authorizeUrl, connectUrlOf, exchange, form, type RegisteredApp, type TokenAnswer } from "./oauth-support.ts"

/**
 * Issue 20's done-when as one journey, as a partner app and a merchant meet it: the app is
 * registered in the sandbox, a merchant signs up and connects in Chromium through the consent
 * page, the app exchanges its code and works through the official client (a payment with an
 * `app_fee`), receives the merchant's webhooks with `links.organisation`, is paid its fee in a
 * partner payout once the clocks pass, and loses access on `revoke`, which `introspect` reports.
 */

const BANK_ACCOUNT = { account_holder_name: "Holder Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP", set_as_default_payout_account: true }

type Delivered = { readonly events: ReadonlyArray<{ readonly resource_type: string; readonly action: string; readonly links: Record<string, string> }> }

const eventually = async (done: () => boolean, what: string, limitMs = 15_000) => {
  const until = Date.now() + limitMs
  while (!done()) {
    if (Date.now() > until) throw new Error(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

let server: TestServer
let browser: Browser
let receiver: Receiver
let appPage: Server
let callback: string

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  // The receiver's own signature check is not used: the app's secret exists once the app is registered.
  receiver = await startReceiver("not-the-app-secret")
  appPage = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>App</title><p>Connected</p>"))
  await new Promise<void>((resolve) => appPage.listen(0, "127.0.0.1", resolve))
  callback = `http://127.0.0.1:${(appPage.address() as AddressInfo).port}/callback`
}, 60_000)
afterAll(async () => {
  await browser.close()
  await receiver.close()
  await new Promise((resolve) => appPage.close(resolve))
  await server.close()
})

/** The merchant's payout account: an endpoint restricted for apps, so set up as the merchant would (in process). */
const payoutAccountFor = (organisation: OrganisationId, creditor: string) =>
  server.runtime.runPromise(Effect.gen(function*() {
    const command = yield* Effect.orDie(Schema.decodeUnknownEffect(REQUEST_BODIES.creditor_bank_accounts.create)({ ...BANK_ACCOUNT, links: { creditor } }))
    yield* Effect.orDie((yield* Creditors).createBankAccount(organisation, command))
  }) as unknown as Effect.Effect<void>)

const advanceDays = async (token: string, days: number) => {
  for (let day = 0; day < days; day++) {
    expect((await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })).status).toBe(200)
  }
}

describe("a partner app's whole life in the sandbox", () => {
  it("connects in the browser, charges an app fee, hears the merchant's events, is paid, and loses access on revoke", { timeout: 180_000 }, async () => {
    const ownToken = server.boot.accessToken ?? ""
    const partner = localClient(ownToken, server.url)
    const partnerCreditor = server.boot.creditor ?? ""
    await partner.creditorBankAccounts.create({ ...BANK_ACCOUNT, links: { creditor: partnerCreditor } } as never)
    await partner.scenarioSimulators.run("creditor_verification_status_successful", { links: { resource: partnerCreditor } })
    const registered = await api(server.url, ownToken, "/oauth_apps", { method: "POST", body: { oauth_apps: { name: "Ledgerly", redirect_uris: [callback], webhook_url: receiver.url } } })
    expect(registered.status).toBe(201)
    const app = (await registered.json() as { oauth_apps: RegisteredApp & { readonly webhook_secret: string } }).oauth_apps
    const connect = await connectUrlOf(server)

    // The merchant signs up and agrees on the consent page.
    const page = await browser.context.newPage()
    await page.goto(authorizeUrl(connect, { response_type: "code", client_id: app.client_id, redirect_uri: callback, scope: "read_write", state: "journey-1" }))
    await page.getByLabel("Your email").fill("owner@merchant.example")
    await page.getByRole("radio", { name: /Sign up/ }).check()
    await page.getByLabel("Organisation name").fill("Merchant Ltd")
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL((url) => url.pathname === "/callback")
    const landed = new URL(page.url())
    await page.close()
    expect(landed.searchParams.get("state")).toBe("journey-1")
    const exchanged = await exchange(connect, app, landed.searchParams.get("code") ?? "", callback)
    expect(exchanged.status).toBe(200)
    const token = await exchanged.json() as TokenAnswer
    expect(token).toMatchObject({ token_type: "bearer", scope: "read_write", email: "owner@merchant.example" })

    // The app works for the merchant through the official client, with an app fee.
    const asApp = localClient(token.access_token, server.url)
    const merchantCreditor = (await asApp.creditors.list()).creditors[0]?.id ?? ""
    await payoutAccountFor(OrganisationId(token.organisation_id), merchantCreditor)
    await asApp.scenarioSimulators.run("creditor_verification_status_successful", { links: { resource: merchantCreditor } })
    // The app's own payment pages, approved by the operator: its token may then set up the mandate.
    await approvePaymentPages(server, app, true)
    const { mandate } = await fulfilledMandateRequest(asApp)
    const payment = await asApp.payments.create({ amount: 2000, currency: "GBP", app_fee: 300, links: { mandate } } as never)

    // The merchant's events reach the app's webhook URL, signed with its secret, naming the organisation.
    const events = () => receiver.received.flatMap((r) => (JSON.parse(r.body) as Delivered).events)
    await eventually(() => events().some((e) => e.resource_type === "payments" && e.action === "created" && e.links["payment"] === payment.id), "the payment's created event")
    for (const request of receiver.received) {
      expect(gocardless.parse(request.body, app.webhook_secret, String(request.headers["webhook-signature"])).length).toBeGreaterThan(0)
    }
    expect(events().every((e) => e.links["organisation"] === token.organisation_id)).toBe(true)

    // The merchant's clock collects and pays out; the partner's clock then pays the fee to the app's organisation.
    await advanceDays(token.access_token, 12)
    const paid = await asApp.payments.find(payment.id ?? "")
    expect(paid.status).toBe("paid_out")
    await eventually(() => events().some((e) => e.resource_type === "payments" && e.action === "paid_out" && e.links["payment"] === payment.id), "the payment's paid_out event")
    const items = (await asApp.payoutItems.list({ payout: paid.links?.payout ?? "" })).payout_items
    expect(Number(items.find((i) => i.type === "app_fee")?.amount)).toBe(-300)
    await advanceDays(ownToken, 14)
    const partnerPayouts = (await partner.payouts.list({ payout_type: "partner" } as never)).payouts
    expect(partnerPayouts.map((p) => [p.amount, p.currency])).toEqual([[300, "GBP"]])

    // Revoked: introspect says inactive, and the API refuses the token.
    const credentials = { client_id: app.client_id, client_secret: app.client_secret }
    const introspect = async () => await (await form(`${connect}/oauth/introspect`, { ...credentials, token: token.access_token })).json() as Record<string, unknown>
    expect(await introspect()).toMatchObject({ active: true, organisation_id: token.organisation_id })
    expect((await form(`${connect}/oauth/revoke`, { ...credentials, token: token.access_token })).status).toBe(200)
    expect(await introspect()).toEqual({ active: false })
    const refused = await api(server.url, token.access_token, "/payments")
    expect(refused.status).toBe(401)
    expect((await refused.json() as { error: { errors: ReadonlyArray<{ reason: string }> } }).error.errors[0]?.reason).toBe("access_token_revoked")
  })
})
