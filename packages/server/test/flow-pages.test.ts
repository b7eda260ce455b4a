import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, localClient, SERVER_DATABASES, startServer, type TestServer } from "./harness.ts"
import { advance, bankAuthorisation, hiddenToken, PAGES_TOKEN, postForm } from "./pages-support.ts"

/**
 * The billing request flow and redirect flow pages over HTTP, as a browser without JavaScript
 * meets them: their URLs, the CSRF refusals, escaping, stale forms, the locks and expiry.
 * flow-pages.browser.test.ts walks the same pages in Chromium.
 */

let server: TestServer
let client: GoCardlessClient
beforeAll(async () => {
  server = await startServer({ sandboxToken: PAGES_TOKEN })
  client = localClient(PAGES_TOKEN, server.url)
})
afterAll(() => server.close())

const post = postForm

const DETAILS = {
  step: "collect_customer_details",
  email: "ada@example.com",
  given_name: "Ada",
  family_name: "Lovelace",
  address_line1: "1 Analytical Row",
  city: "London",
  postal_code: "N1 1AA",
  country_code: "gb"
}

const mandateFlow = async (flow: Record<string, unknown> = {}) => {
  const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
  const created = await client.billingRequestFlows.create({ links: { billing_request: request.id }, redirect_uri: "https://merchant.example/done", ...flow } as never)
  return { request: request.id ?? "", url: created.authorisation_url ?? "" }
}

const customerOf = async (request: string) => (await client.billingRequests.find(request)).resources?.customer

describe("the flows' URLs", () => {
  it("a billing request flow's authorisation_url and a redirect flow's redirect_url are absolute and served", async () => {
    const organisation = server.boot.organisation.id
    const { url } = await mandateFlow()
    expect(url).toMatch(new RegExp(`^${server.url}/pages/${organisation}/billing_request_flows/BRF`))
    expect((await fetch(url)).status).toBe(200)
    const redirectFlow = await client.redirectFlows.create({ session_token: "SESS_secret_123", success_redirect_url: "https://merchant.example/rf", scheme: "bacs" } as never)
    expect(redirectFlow.redirect_url).toMatch(new RegExp(`^${server.url}/pages/${organisation}/redirect_flows/${redirectFlow.id ?? ""}/[\\w-]{22}$`))
    const page = await fetch(redirectFlow.redirect_url ?? "")
    expect(page.status).toBe(200)
    // The session token is the merchant's secret: never on the payer's pages.
    expect(await page.text()).not.toContain("SESS_secret_123")
    expect((await fetch(`${server.url}/pages/${organisation}/billing_request_flows/BRF000000000000/AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404)
    // Its confirmation page exists once the flow is completed (its mandate made), not before.
    expect((await fetch(`${redirectFlow.redirect_url ?? ""}/success`)).status).toBe(404)
  })
})

describe("PAYKIT_PUBLIC_URL", () => {
  it("is the base of a flow's authorisation_url and a redirect flow's redirect_url", async () => {
    const proxied = await startServer({ sandboxToken: PAGES_TOKEN, publicUrl: "https://pay.example.com" })
    try {
      const proxiedClient = localClient(PAGES_TOKEN, proxied.url)
      const organisation = proxied.boot.organisation.id
      const request = await proxiedClient.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
      const flow = await proxiedClient.billingRequestFlows.create({ links: { billing_request: request.id } } as never)
      expect(flow.authorisation_url).toMatch(new RegExp(`^https://pay\\.example\\.com/pages/${organisation}/billing_request_flows/${flow.id ?? ""}/[\\w-]{22}$`))
      const redirectFlow = await proxiedClient.redirectFlows.create({ session_token: "S", success_redirect_url: "https://merchant.example/rf", scheme: "bacs" } as never)
      expect(redirectFlow.redirect_url).toMatch(new RegExp(`^https://pay\\.example\\.com/pages/${organisation}/redirect_flows/${redirectFlow.id ?? ""}/[\\w-]{22}$`))
      expect((await fetch(`${proxied.url}${new URL(flow.authorisation_url ?? "").pathname}`)).status).toBe(200)
    } finally {
      await proxied.close()
    }
  })
})

describe("the flow's forms", () => {
  it("a post without its page's token, or with another flow's, is refused and changes nothing", async () => {
    const { request, url } = await mandateFlow()
    const other = await mandateFlow()
    expect((await post(url, DETAILS)).status).toBe(403)
    const otherToken = hiddenToken(await (await fetch(other.url)).text())
    expect((await post(url, { ...DETAILS, csrf_token: otherToken })).status).toBe(403)
    expect((await customerOf(request))?.email).toBeNull()
    const token = hiddenToken(await (await fetch(url)).text())
    const answered = await post(url, { ...DETAILS, csrf_token: token })
    expect(answered.status).toBe(303)
    expect(await customerOf(request)).toMatchObject({ email: "ada@example.com", family_name: "Lovelace" })
  })

  it("a form of another step than the request's (a second tab) changes nothing and shows where the flow is", async () => {
    const { request, url } = await mandateFlow()
    const token = hiddenToken(await (await fetch(url)).text())
    const stale = await post(url, { csrf_token: token, step: "confirm_payer_details" })
    expect(stale.status).toBe(303)
    expect(stale.headers.get("location")).toBe(new URL(url).pathname)
    expect((await client.billingRequests.find(request)).actions?.find((a) => a.type === "confirm_payer_details")?.status).toBe("pending")
  })

  it("escapes what the merchant prefilled", async () => {
    const { url } = await mandateFlow({ prefilled_customer: { given_name: "<img src=x onerror=alert(1)>\"'" } })
    const html = await (await fetch(url)).text()
    expect(html).not.toContain("<img src=x")
    expect(html).toContain("value=\"&lt;img src=x onerror=alert(1)&gt;&quot;&#39;\"")
  })

  it("a bad bank account is refused with the API's rules, on the form (422), and nothing is collected", async () => {
    const { request, url } = await mandateFlow()
    await post(url, { ...DETAILS, csrf_token: hiddenToken(await (await fetch(url)).text()) })
    const token = hiddenToken(await (await fetch(url)).text())
    const refused = await post(url, { csrf_token: token, step: "collect_bank_account", account_holder_name: "Ada Lovelace", country_code: "GB", branch_code: "200000", account_number: "12" })
    expect(refused.status).toBe(422)
    const html = await refused.text()
    expect(html).toContain("role=\"alert\"")
    expect(html).toContain("aria-invalid=\"true\"")
    expect((await client.billingRequests.find(request)).links?.customer_bank_account).toBeUndefined()
  })

  it("a locked bank account's type is the prefilled one, not asked; it applies to US accounts only (the API refuses it elsewhere)", async () => {
    const { request, url } = await mandateFlow({ lock_bank_account: true, prefilled_bank_account: { account_type: "savings" } })
    await post(url, { ...DETAILS, csrf_token: hiddenToken(await (await fetch(url)).text()) })
    const html = await (await fetch(url)).text()
    expect(html).toContain("<h1>Your bank account</h1>")
    expect(html).not.toContain("name=\"account_type\"")
    const answered = await post(url, {
      csrf_token: hiddenToken(html), step: "collect_bank_account", account_holder_name: "Ada Lovelace", country_code: "GB",
      branch_code: "200000", account_number: "55779911", account_type: "checking"
    })
    expect(answered.status).toBe(303)
    const account = (await client.billingRequests.find(request)).resources?.customer_bank_account
    expect(account?.account_number_ending).toBe("11")
    expect(account?.account_type).toBeNull()
  })
})

describe("what the request still misses, and a closed request", () => {
  it("details posted without a field the request needs: refused by the API's rule, on the form (422), nothing kept", async () => {
    const { request, url } = await mandateFlow()
    const { family_name: _left, ...partial } = DETAILS
    const refused = await post(url, { ...partial, csrf_token: hiddenToken(await (await fetch(url)).text()) })
    expect(refused.status).toBe(422)
    const html = await refused.text()
    expect(html).toContain("<li id=\"problem-family_name\">Last name: is required for this billing request</li>")
    expect(html).toContain("name=\"family_name\" value=\"\" type=\"text\" required autocomplete=\"family-name\" aria-describedby=\"problem-family_name\" aria-invalid=\"true\"")
    expect(html).toContain("value=\"ada@example.com\"")
    expect((await customerOf(request))?.email).toBeNull()
  })

  it("locked details the merchant left incomplete: what is missing is listed, and there is no way on", async () => {
    const { url } = await mandateFlow({ lock_customer_details: true, prefilled_customer: { email: "lin@example.com", given_name: "Lin", family_name: "Locke" } })
    const html = await (await fetch(url)).text()
    expect(html).toContain("lin@example.com")
    expect(html).toContain("<li>Address line 1</li>")
    expect(html).not.toContain("<button")
  })

  it("a cancelled request's flow says it can no longer be completed", async () => {
    const { request, url } = await mandateFlow({ exit_uri: "https://merchant.example/exit" })
    await client.billingRequests.cancel(request, {} as never)
    const html = await (await fetch(url)).text()
    expect(html).toContain("<h1>This request is closed</h1>")
    expect(html).toContain("href=\"https://merchant.example/exit\"")
  })
})

describe("an expired flow", () => {
  it("says so (410) and takes no answer", async () => {
    const { request, url } = await mandateFlow()
    const token = hiddenToken(await (await fetch(url)).text())
    // Billing request flows live seven days.
    await advance(server, 8 * 24 * 60 * 60)
    const page = await fetch(url)
    expect(page.status).toBe(410)
    expect(await page.text()).toContain("This link has expired.")
    expect((await post(url, { ...DETAILS, csrf_token: token })).status).toBe(303)
    expect((await customerOf(request))?.email).toBeNull()
  })
})

describe.each(SERVER_DATABASES)("on %s", (_name, start) => {
  it("a redirect flow walked over its pages ends at success_redirect_url and completes; a NUL in a flow page's path is a 404", async () => {
    const own = await start()
    try {
      const ownClient = localClient(own.boot.accessToken ?? "", own.url)
      const flow = await ownClient.redirectFlows.create({ session_token: "SESS_db", success_redirect_url: "https://merchant.example/rf?basket=1", scheme: "bacs" } as never)
      const url = flow.redirect_url ?? ""
      await answer(url, DETAILS)
      await answer(url, { step: "collect_bank_account", account_holder_name: "Ada Lovelace", country_code: "GB", branch_code: "200000", account_number: "55779911" })
      await answer(url, { step: "confirm_payer_details" })
      const done = await (await fetch(url)).text()
      expect(done).toContain("<h1>All done</h1>")
      expect(done).toContain(`href="https://merchant.example/rf?basket=1&amp;redirect_flow_id=${flow.id ?? ""}"`)
      const completed = await ownClient.redirectFlows.complete(flow.id ?? "", { session_token: "SESS_db" })
      expect(completed.links?.mandate).toMatch(/^MD/)
      expect((await fetch(completed.confirmation_url ?? "")).status).toBe(200)
      for (const path of ["/pages/OR%00/billing_request_flows/BRF000000000000/AAAAAAAAAAAAAAAAAAAAAA", "/pages/OR%00/redirect_flows/RE000000000000/AAAAAAAAAAAAAAAAAAAAAA"]) {
        expect((await fetch(`${own.url}${path}`)).status, path).toBe(404)
      }
    } finally {
      await own.close()
    }
  })
})

/** Each step's post, with the token of the page before it; the answer must move the flow on. */
const answer = async (url: string, fields: Record<string, string>) => {
  const answered = await post(url, { ...fields, csrf_token: hiddenToken(await (await fetch(url)).text()) })
  expect(answered.status, await answered.clone().text()).toBe(303)
  return answered
}

/** Every required action of a mandate request done through the API: the request is ready to fulfil. */
const readyThroughApi = async (request: string) => {
  await client.billingRequests.collectCustomerDetails(request, {
    customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
    customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
  } as never)
  await client.billingRequests.collectBankAccount(request, { account_holder_name: "Ada Lovelace", country_code: "GB", branch_code: "200000", account_number: "55779911" } as never)
  await client.billingRequests.confirmPayerDetails(request, {} as never)
}

describe("review fixes", () => {
  it("locked details post what the page showed: the customer's held value, not a prefilled one the payer never saw", async () => {
    const customer = await client.customers.create({ email: "held@example.com", given_name: "Held", family_name: "Person" } as never)
    const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" }, links: { customer: customer.id } } as never)
    const flow = await client.billingRequestFlows.create({
      links: { billing_request: request.id }, lock_customer_details: true,
      prefilled_customer: { email: "other@example.com", given_name: "Other", family_name: "Person", address_line1: "1 Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
    } as never)
    const url = flow.authorisation_url ?? ""
    const html = await (await fetch(url)).text()
    expect(html).toContain("held@example.com")
    expect(html).not.toContain("other@example.com")
    expect((await post(url, { step: "collect_customer_details", csrf_token: hiddenToken(html) })).status).toBe(303)
    expect((await customerOf(request.id ?? ""))?.email).toBe("held@example.com")
  })

  it("region and address_line3: asked, prefilled, and posted when locked", async () => {
    const address = { address_line1: "1 Row", address_line3: "Hamlet", city: "London", region: "Greater London", postal_code: "N1 1AA", country_code: "GB" }
    const open = await mandateFlow({ prefilled_customer: { email: "a@example.com", given_name: "A", family_name: "B", ...address } })
    const html = await (await fetch(open.url)).text()
    expect(html).toContain("name=\"region\" value=\"Greater London\"")
    expect(html).toContain("name=\"address_line3\" value=\"Hamlet\"")
    const locked = await mandateFlow({ lock_customer_details: true, prefilled_customer: { email: "a@example.com", given_name: "A", family_name: "B", ...address } })
    expect((await post(locked.url, { step: "collect_customer_details", csrf_token: hiddenToken(await (await fetch(locked.url)).text()) })).status).toBe(303)
    const detail = (await client.billingRequests.find(locked.request)).resources?.customer_billing_detail
    expect(detail).toMatchObject({ region: "Greater London", address_line3: "Hamlet" })
  })

  it("an expired auto_fulfil flow opened later is a 410 and fulfils nothing", async () => {
    const { request, url } = await mandateFlow({ auto_fulfil: true })
    await readyThroughApi(request)
    await advance(server, 8 * 24 * 60 * 60)
    expect((await fetch(url)).status).toBe(410)
    const after = await client.billingRequests.find(request)
    expect(after.status).toBe("ready_to_fulfil")
    expect(after.links?.mandate_request_mandate).toBeUndefined()
  })

  it("a form's post and its redirect keep no language cookie; only the language switch does", async () => {
    const { url } = await mandateFlow({ language: "fr" })
    const html = await (await fetch(url)).text()
    expect(html).toContain("<html lang=\"fr\"")
    const answered = await post(url, { ...DETAILS, lang: "fr", csrf_token: hiddenToken(html) })
    expect(answered.status).toBe(303)
    expect(answered.headers.get("set-cookie")).toBeNull()
    const location = answered.headers.get("location") ?? ""
    expect(location).not.toContain("lang=")
    const switched = await fetch(`${url}?lang=de`)
    expect(switched.headers.get("set-cookie")).toContain("paykit_lang=de")
  })

  it("a translated page names what is missing or refused by its translated label, not the API's name or English rule", async () => {
    const locked = await mandateFlow({ language: "de", lock_customer_details: true, prefilled_customer: { email: "lin@example.com", given_name: "Lin", family_name: "Locke" } })
    expect(await (await fetch(locked.url)).text()).toContain("<li>Adresszeile 1</li>")
    const { url } = await mandateFlow({ language: "de" })
    const { family_name: _left, ...partial } = DETAILS
    const refused = await (await post(url, { ...partial, lang: "de", csrf_token: hiddenToken(await (await fetch(url)).text()) })).text()
    expect(refused).toContain("<li id=\"problem-family_name\">Nachname: Bitte prüfen Sie diese Angabe.</li>")
    expect(refused).not.toContain("is required")
  })

  it("a redirect flow's page follows its own billing request flow, not a later one made on its request; the link stays internal", async () => {
    const redirectFlow = await client.redirectFlows.create({ session_token: "S1", success_redirect_url: "https://merchant.example/rf", scheme: "bacs", prefilled_customer: { language: "fr" } } as never)
    await client.billingRequestFlows.create({ links: { billing_request: redirectFlow.links?.billing_request }, language: "de", auto_fulfil: true } as never)
    const url = redirectFlow.redirect_url ?? ""
    expect(await (await fetch(url)).text()).toContain("<html lang=\"fr\"")
    const shown = await api(server.url, PAGES_TOKEN, `/redirect_flows/${redirectFlow.id ?? ""}`)
    expect(await shown.text()).not.toContain("billing_request_flow")
    await answer(url, DETAILS)
    await answer(url, { step: "collect_bank_account", account_holder_name: "Ada Lovelace", country_code: "GB", branch_code: "200000", account_number: "55779911" })
    await answer(url, { step: "confirm_payer_details" })
    await fetch(url)
    // The later flow's auto_fulfil does not fulfil before the merchant completes the redirect flow.
    expect((await client.billingRequests.find(redirectFlow.links?.billing_request ?? "")).status).toBe("ready_to_fulfil")
  })

  it("a redirect flow's confirmation page is in the flow's language and lives 15 minutes after completion", async () => {
    const redirectFlow = await client.redirectFlows.create({ session_token: "S2", success_redirect_url: "https://merchant.example/rf", scheme: "bacs", prefilled_customer: { language: "de" } } as never)
    const url = redirectFlow.redirect_url ?? ""
    await answer(url, DETAILS)
    await answer(url, { step: "collect_bank_account", account_holder_name: "Ada Lovelace", country_code: "GB", branch_code: "200000", account_number: "55779911" })
    await answer(url, { step: "confirm_payer_details" })
    const completed = await client.redirectFlows.complete(redirectFlow.id ?? "", { session_token: "S2" })
    const confirmation = await fetch(completed.confirmation_url ?? "")
    expect(confirmation.status).toBe(200)
    expect(await confirmation.text()).toContain("<html lang=\"de\"")
    await advance(server, 16 * 60)
    expect((await fetch(completed.confirmation_url ?? "")).status).toBe(410)
  })

  it("overlapping posts of one step: the loser is shown the page as it is now, not an error", async () => {
    const { request, url } = await mandateFlow()
    await post(url, { ...DETAILS, csrf_token: hiddenToken(await (await fetch(url)).text()) })
    const token = hiddenToken(await (await fetch(url)).text())
    const account = { csrf_token: token, step: "collect_bank_account", account_holder_name: "Ada Lovelace", country_code: "GB", branch_code: "200000", account_number: "55779911" }
    const answers = await Promise.all([post(url, account), post(url, account), post(url, account)])
    for (const answered of answers) expect(answered.status, await answered.clone().text()).toBe(303)
    expect((await client.billingRequests.find(request)).links?.customer_bank_account).toMatch(/^BA/)
  })
})

describe("a billing request template's authorisation_url", () => {
  it("shows a Start page (creating nothing); its post starts a billing request of the template's and its flow, then the flow's page", async () => {
    const template = await client.billingRequestTemplates.create({
      name: "Gym <membership>", mandate_request_currency: "GBP", mandate_request_scheme: "bacs",
      payment_request_amount: "2500", payment_request_currency: "GBP", payment_request_description: "Joining fee", redirect_uri: "https://merchant.example/welcome"
    } as never)
    const url = template.authorisation_url ?? ""
    expect(url).toMatch(new RegExp(`^${server.url}/pages/${server.boot.organisation.id}/billing_request_templates/BRT`))
    const count = async () => (await client.billingRequests.list({ limit: "500" } as never)).billing_requests.length
    const before = await count()
    const shown = await fetch(url)
    expect(shown.status).toBe(200)
    const html = await shown.text()
    expect(html).toContain("Gym &lt;membership&gt;")
    await fetch(url)
    await fetch(url, { method: "HEAD" })
    expect(await count()).toBe(before)
    expect((await post(url, {})).status).toBe(403)
    expect(await count()).toBe(before)
    const started = await post(url, { csrf_token: hiddenToken(html) })
    expect(started.status).toBe(303)
    const location = started.headers.get("location") ?? ""
    expect(location).toMatch(new RegExp(`^${server.url}/pages/${server.boot.organisation.id}/billing_request_flows/BRF\\w+/[\\w-]{22}$`))
    const flowId = location.split("/").at(-2) ?? ""
    const flow = await client.billingRequestFlows.initialise(flowId, {} as never)
    const request = await client.billingRequests.find(flow.links?.billing_request ?? "")
    expect(request.mandate_request).toMatchObject({ currency: "GBP", scheme: "bacs" })
    expect(request.payment_request).toMatchObject({ amount: 2500, currency: "GBP", description: "Joining fee" })
    expect(flow.redirect_uri).toBe("https://merchant.example/welcome")
    expect((await fetch(location)).status).toBe(200)
    expect(await count()).toBe(before + 1)
    expect((await fetch(`${server.url}/pages/${server.boot.organisation.id}/billing_request_templates/BRT000000000000/AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404)
  })
})

/**
 * The page URLs handed to a payer are unguessable (docs/pages.md, "Unguessable URLs"): after the
 * resource's id comes a key, an HMAC of the page's collection, organisation and id under the
 * server's key. A URL without it, with it altered, or with another resource's answers 404, on GET
 * and POST alike, as an unknown id does: nothing says the resource exists.
 */
/** 128 bits as base64url: 22 characters. */
const KEY = "[A-Za-z0-9_-]{22}"

/** The key segment of a page URL (the one after `id`), and the URL without it or with it changed. */
const variantsOf = (url: string, id: string, otherKey: string) => {
  const [before, after] = url.split(`/${id}/`)
  const key = (after ?? "").split("/")[0] ?? ""
  const rest = (after ?? "").slice(key.length)
  const flipped = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`
  return {
    key,
    without: `${before ?? ""}/${id}${rest}`,
    altered: `${before ?? ""}/${id}/${flipped}${rest}`,
    lowered: `${before ?? ""}/${id}/${key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase()}${rest}`,
    foreign: `${before ?? ""}/${id}/${otherKey}${rest}`
  }
}

const keyOf = (url: string, id: string): string => (url.split(`/${id}/`)[1] ?? "").split("/")[0] ?? ""

/** A flow as the API makes it: its id and page URL. */
const keyedFlow = async () => {
  const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
  return client.billingRequestFlows.create({ links: { billing_request: request.id } } as never)
}

const expectRefused = async (url: string, id: string, otherKey: string) => {
  const v = variantsOf(url, id, otherKey)
  expect(v.key).toMatch(new RegExp(`^${KEY}$`))
  expect((await fetch(url)).status).toBe(200)
  for (const wrong of [v.without, v.altered, v.lowered, v.foreign]) {
    const got = await fetch(wrong)
    expect({ wrong, status: got.status }).toEqual({ wrong, status: 404 })
  }
  return v
}

describe("payer page URLs carry an unguessable key", () => {
  it("a billing request flow's page: 404 without its key, with it altered or with another flow's, on GET and POST", async () => {
    const flow = await keyedFlow()
    const other = await keyedFlow()
    const url = flow.authorisation_url ?? ""
    expect(url).toMatch(new RegExp(`^${server.url}/pages/${server.boot.organisation.id}/billing_request_flows/${flow.id ?? ""}/${KEY}$`))
    const v = await expectRefused(url, flow.id ?? "", keyOf(other.authorisation_url ?? "", other.id ?? ""))
    // A post to a wrong URL is refused before the CSRF token is read: 404, not 403.
    const token = hiddenToken(await (await fetch(url)).text())
    for (const wrong of [v.without, v.altered]) expect((await post(wrong, { csrf_token: token, step: "collect_customer_details" })).status).toBe(404)
  })

  it("a redirect flow's page and a template's Start page", async () => {
    const redirectFlow = await client.redirectFlows.create({ session_token: "S", success_redirect_url: "https://merchant.example/rf", scheme: "bacs" } as never)
    const another = await client.redirectFlows.create({ session_token: "S", success_redirect_url: "https://merchant.example/rf", scheme: "bacs" } as never)
    await expectRefused(redirectFlow.redirect_url ?? "", redirectFlow.id ?? "", keyOf(another.redirect_url ?? "", another.id ?? ""))
    const template = await client.billingRequestTemplates.create({ name: "Gym", mandate_request_currency: "GBP", mandate_request_scheme: "bacs" } as never)
    const v = await expectRefused(template.authorisation_url ?? "", template.id ?? "", keyOf(redirectFlow.redirect_url ?? "", redirectFlow.id ?? ""))
    const token = hiddenToken(await (await fetch(template.authorisation_url ?? "")).text())
    expect((await post(v.without, { csrf_token: token })).status).toBe(404)
    // Start leads to the new flow's page, under its own key.
    const started = await post(template.authorisation_url ?? "", { csrf_token: token })
    expect(started.headers.get("location")).toMatch(new RegExp(`/billing_request_flows/BRF\\w+/${KEY}$`))
  })

  it("a bank authorisation's page, its QR code and its default redirect share the authorisation's key", async () => {
    const { authorisation } = await bankAuthorisation(client)
    const id = authorisation.id ?? ""
    const url = authorisation.url ?? ""
    expect(authorisation.qr_code_url).toBe(`${url}/qr.png`)
    expect(authorisation.redirect_uri).toBe(`${url}/complete`)
    const { authorisation: other } = await bankAuthorisation(client)
    const otherKey = keyOf(other.url ?? "", other.id ?? "")
    await expectRefused(url, id, otherKey)
    await expectRefused(authorisation.qr_code_url ?? "", id, otherKey)
    await expectRefused(authorisation.redirect_uri ?? "", id, otherKey)
  })
})
