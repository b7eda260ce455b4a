import { readFileSync } from "node:fs"
import { createServer, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { APP_RESTRICTED_ROUTES, appRestrictionsDoc, PAYKIT_ROUTES } from "@paykit/http"
import { SANDBOX_ROUTES } from "../src/index.ts"
import { api, localClient, startServer, type TestServer } from "./harness.ts"
import {
  approvePaymentPages,
  authorizeUrl,
  CALLBACK,
  connectUrlOf,
  connectWith,
  consent,
  csrfOf,
  errorOf,
  exchange,
  form,
  type RegisteredApp,
  registerApp,
  type TokenAnswer
} from "./oauth-support.ts"
import { hiddenToken, PAGES_TOKEN, postForm, validatedImport } from "./pages-support.ts"

/**
 * Every actor in its lane: a partner app's token, on an organisation signed up through the app's
 * consent page, is refused every route the app restrictions name, whatever the route (not only
 * the spec's named creations), and the merchant's own acts.
 */

/** A route's path with its parameters filled: the gateway refuses before any lookup. */
const concrete = (path: string): string => path.replace(/:id/g, "XX0000000000AB")

describe("a partner app's lanes", () => {
  let server: TestServer
  let app: RegisteredApp
  let merchant: TokenAnswer
  beforeAll(async () => {
    server = await startServer({ sandboxToken: PAGES_TOKEN })
    app = await registerApp(server, server.boot.accessToken ?? "")
    const connect = await connectUrlOf(server)
    const location = await consent(connect, app, { decision: "allow", account: "signup", organisation_name: "Merchant Ltd", country_code: "GB", email: "m@merchant.example" })
    merchant = await (await exchange(connect, app, location.searchParams.get("code") ?? "")).json() as TokenAnswer
  }, 60_000)
  afterAll(() => server.close())

  const asApp = (path: string, method = "GET", body?: unknown) => api(server.url, merchant.access_token, path, { method, ...(body === undefined ? {} : { body }) })
  const approve = (approved: boolean) => approvePaymentPages(server, app, approved)

  it("every route of the rule answers 403 restricted_for_apps to an unapproved app's token", async () => {
    for (const route of APP_RESTRICTED_ROUTES) {
      const method = route.method === "*" ? "GET" : route.method
      const body = method === "GET" ? undefined : {}
      expect({ route: `${route.method} ${route.path}`, ...await errorOf(await asApp(concrete(route.path), method, body)) })
        .toEqual({ route: `${route.method} ${route.path}`, status: 403, reason: "restricted_for_apps" })
    }
  })

  it("a payer authorisation made by the app cannot be submitted nor confirmed into a customer, account and mandate", async () => {
    const made = await asApp("/payer_authorisations", "POST", {
      payer_authorisations: {
        customer: { email: "p@example.com", given_name: "P", family_name: "Q", address_line1: "1 Road", city: "London", postal_code: "N1 1AA", country_code: "GB" },
        bank_account: { account_holder_name: "P Q", account_number: "55779911", branch_code: "200000", country_code: "GB" },
        mandate: { scheme: "bacs" }
      }
    })
    expect(made.status).toBe(201)
    const id = (await made.json() as { payer_authorisations: { id: string } }).payer_authorisations.id
    expect(await errorOf(await asApp(`/payer_authorisations/${id}/actions/submit`, "POST"))).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect(await errorOf(await asApp(`/payer_authorisations/${id}/actions/confirm`, "POST"))).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect((await (await asApp("/customers")).json() as { customers: ReadonlyArray<unknown> }).customers).toEqual([])
  })

  it("the approval opens the payer routes, never the merchant's own acts", async () => {
    await approve(true)
    try {
      expect((await asApp("/billing_requests/create_with_actions", "POST", { billing_requests: { mandate_request: { currency: "GBP", scheme: "bacs" } } })).status).not.toBe(403)
      expect(await errorOf(await asApp(concrete("/sandbox/outbound_payment_imports/:id/actions/authorise"), "POST"))).toEqual({ status: 403, reason: "restricted_for_apps" })
      expect(await errorOf(await asApp("/public_keys", "POST", { public_keys: { public_key: "x" } }))).toEqual({ status: 403, reason: "restricted_for_apps" })
      expect(await errorOf(await asApp(concrete("/bank_account_details/:id")))).toEqual({ status: 403, reason: "restricted_for_apps" })
    } finally {
      await approve(false)
    }
  })

  it("an app connected to the sandbox organisation may not authorise its outbound payment import, on the page nor through the sandbox", async () => {
    const own = localClient(PAGES_TOKEN, server.url)
    const created = await validatedImport(server, own)
    const appToken = (await connectWith(await connectUrlOf(server), app, PAGES_TOKEN)).access_token
    const url = created.authorisation_url ?? ""
    const refused = await postForm(url, { choice: "authorise", csrf_token: hiddenToken(await (await fetch(url)).text()), access_token: appToken })
    expect(refused.status).toBe(403)
    const sandbox = await api(server.url, appToken, `/sandbox/outbound_payment_imports/${created.id ?? ""}/actions/authorise`, { method: "POST" })
    expect(await errorOf(sandbox)).toEqual({ status: 403, reason: "restricted_for_apps" })
    expect((await own.outboundPaymentImports.find(created.id ?? "")).status).toBe("valid")
  })

  it("another organisation's links are refused at once: an import's recipient account, a payer authorisation's creditor", async () => {
    const own = localClient(PAGES_TOKEN, server.url)
    const foreignAccount = (await own.customerBankAccounts.list()).customer_bank_accounts[0]?.id ?? ""
    expect(foreignAccount).not.toBe("")
    const imported = await asApp("/outbound_payment_imports", "POST", {
      outbound_payment_imports: { entry_items: [{ scheme: "faster_payments", amount: 100, recipient_bank_account_id: foreignAccount }] }
    })
    expect(await errorOf(imported)).toEqual({ status: 422, reason: "validation_failed" })
    const foreignCreditor = server.boot.creditor ?? ""
    const authorisation = await asApp("/payer_authorisations", "POST", { payer_authorisations: { customer: { email: "p@example.com" }, links: { creditor: foreignCreditor } } })
    expect(await errorOf(authorisation)).toEqual({ status: 422, reason: "validation_failed" })
  })

  it("a signup organisation's webhook endpoint may not point at loopback; the sandbox organisation's may", async () => {
    const receiver = createServer((_request, response) => response.end("local service"))
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
      const bySignup = await asApp("/webhook_endpoints", "POST", { webhook_endpoints: { url } })
      expect(await errorOf(bySignup)).toEqual({ status: 422, reason: "validation_failed" })
      expect((await api(server.url, PAGES_TOKEN, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url } } })).status).toBe(201)
      // A partner app connected to the sandbox organisation gets the live rules too.
      const appToken = (await connectWith(await connectUrlOf(server), app, PAGES_TOKEN)).access_token
      expect((await api(server.url, appToken, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url } } })).status).toBe(422)
    } finally {
      receiver.closeAllConnections()
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })

  it("the organisation's own token is not restricted", async () => {
    expect((await api(server.url, PAGES_TOKEN, "/public_keys")).status).toBe(200)
  })
})

/** A request with the headers as given, repeated names kept (fetch would join them into one). */
const rawRequest = (url: string, headers: ReadonlyArray<string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: [...headers] }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on("error", reject)
    request.end()
  })

describe("tokens taken exactly as sent", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ sandboxToken: PAGES_TOKEN })
  }, 60_000)
  afterAll(() => server.close())

  it("two Authorization headers are refused, whichever is good", async () => {
    // Given as a list, the headers are sent as they are: Host too.
    const version = ["Host", new URL(server.url).host, "GoCardless-Version", "2015-07-06"]
    expect(await rawRequest(`${server.url}/customers`, [...version, "Authorization", `Bearer ${PAGES_TOKEN}`])).toBe(200)
    expect(await rawRequest(`${server.url}/customers`, [...version, "Authorization", `Bearer ${PAGES_TOKEN}`, "Authorization", "Bearer other"])).toBe(400)
    expect(await rawRequest(`${server.url}/customers`, [...version, "Authorization", "Bearer other", "Authorization", `Bearer ${PAGES_TOKEN}`])).toBe(400)
  })

  it("the consent page's login refuses a token with a leading space", async () => {
    const app = await registerApp(server, PAGES_TOKEN)
    const connect = await connectUrlOf(server)
    const login = { decision: "allow", account: "login", email: "owner@merchant.example" }
    const query = { response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: "read_write", state: "s-1" }
    const page = await fetch(authorizeUrl(connect, query))
    const posted = await form(`${connect}/oauth/authorize`, { ...query, initial_view: "login", csrf_token: csrfOf(await page.text()), ...login, access_token: ` ${PAGES_TOKEN}` })
    // The form again with its problem, never a code for the app.
    expect(posted.status).toBe(200)
    expect(await posted.text()).toContain("not an active token")
    expect((await connectWith(connect, app, PAGES_TOKEN)).access_token).not.toBe("")
  })
})

describe("the app restrictions' rule", () => {
  it("names only routes the server serves", () => {
    const served = [...PAYKIT_ROUTES, ...SANDBOX_ROUTES].map(({ endpoint }) => ({ method: endpoint.method, path: endpoint.path }))
    for (const route of APP_RESTRICTED_ROUTES) {
      const found = served.some((s) => route.method === "*" ? s.path === route.path || s.path.startsWith(`${route.path}/`) : s.method === route.method && s.path === route.path)
      expect({ route, found }).toEqual({ route, found: true })
    }
  })

  it("is what docs/oauth.md lists", () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "oauth.md"), "utf8")
    const listed = /<!-- app-restrictions:start -->\n([\s\S]*?)\n<!-- app-restrictions:end -->/.exec(doc)?.[1]
    expect(listed).toBe(appRestrictionsDoc())
  })
})
