import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { issueAccessToken } from "@paykit/http"
import { startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { csrfOf, DASHBOARD_TOKEN, get, post, signedIn } from "./dashboard-support.ts"
import { bacsPayment } from "./dashboard-setup.ts"
import { api, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The dashboard read as a product over HTTP, as a browser without script gets it: amounts in
 * their currency, instants in UTC with the exact value on hover, statuses as badges, a payment's
 * customer, events with their resources, the sandbox's banner, the filters the API takes as
 * selects, the API's own words for a refusal, what each action ran, and why no scenario applies.
 * (dashboard.browser.test.ts sees the same in Chromium, with the script's local times.)
 */

let server: TestServer
let client: GoCardlessClient
let cookie: string
beforeAll(async () => {
  server = await startServer({ sandboxToken: DASHBOARD_TOKEN })
  client = localClient(DASHBOARD_TOKEN, server.url)
  cookie = await signedIn(server.url, DASHBOARD_TOKEN)
})
afterAll(() => server.close())

const page = async (path: string, withCookie = cookie) => {
  const answer = await get(server.url, withCookie, path)
  return { status: answer.status, headers: answer.headers, text: await answer.text() }
}

/** Text as the pages write it (`html` escapes these). */
const escaped = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;").replaceAll("`", "&#96;")

/** The cookie jar of one visit: the session and what the last action said. */
const withOutcome = (answer: Response): string => `${cookie}; ${(answer.headers.get("set-cookie") ?? "").split(";")[0] ?? ""}`

describe("the frame", () => {
  it("has an icon, at the dashboard's path and as /favicon.ico, and one script of its own, which the policy allows and nothing else", async () => {
    const icon = await fetch(`${server.url}/favicon.ico`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get("content-type")).toBe("image/svg+xml")
    expect(await icon.text()).toMatch(/^<svg /)
    expect((await fetch(`${server.url}/dashboard/assets/favicon.svg`)).status).toBe(200)
    const script = await fetch(`${server.url}/dashboard/assets/local-times.js`)
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    const home = await page("/dashboard")
    expect(home.text).toContain('<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">')
    expect(home.text).toContain('<script src="/dashboard/assets/local-times.js" defer></script>')
    expect(home.headers.get("content-security-policy")).toMatch(/default-src 'none'.*; script-src 'self'$/)
  })

  it("says sandbox on every page of a sandbox server, the sign-in page included", async () => {
    for (const path of ["/dashboard", "/dashboard/tokens", "/dashboard/resources/payments"]) expect((await page(path)).text).toContain('<aside class="sandbox-banner" aria-label="Sandbox">')
    expect(await (await fetch(`${server.url}/dashboard/sign_in`)).text()).toContain("<aside class=\"sandbox-banner\"")
  })
})

describe("a payment's page", () => {
  it("shows its amount in pounds, its instants in UTC with the exact value on hover, its status as a badge and its customer", async () => {
    const payment = await bacsPayment(client, 1525)
    const { text } = await page(`/dashboard/resources/payments/${payment}`)
    expect(text).toMatch(/<dt>amount<\/dt><dd><data value="1525" title="1525 in GBP's minor units">£15\.25<\/data><\/dd>/)
    const created = /<dt>created_at<\/dt><dd><time datetime="([^"]+)" title="([^"]+)">([^<]+)<\/time>/.exec(text)
    expect(created?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(created?.[2]).toBe(`${created?.[1]?.slice(0, 10)} ${created?.[1]?.slice(11, 23)} UTC`)
    expect(created?.[3]).toBe(`${created?.[1]?.slice(0, 10)} ${created?.[1]?.slice(11, 16)} UTC`)
    expect(text).toContain('<dt>status</dt><dd><span class="badge badge-pending">pending_submission</span></dd>')
    expect(text).toMatch(/<p>Customer: <a href="\/dashboard\/resources\/customers\/CU[0-9A-Z]+">Ada Lovelace<\/a><\/p>/)
    // Its events, each with the resource it is about.
    expect(text).toMatch(new RegExp(`<td><code>payments\\.created</code></td><td>payment <a href="/dashboard/resources/payments/${payment}"><code>${payment}</code></a></td>`))

    const list = await page("/dashboard/resources/payments")
    expect(list.text).toContain("<th scope=\"col\">customer</th>")
    expect(list.text).toMatch(/£15\.25<\/data><\/td>.*Ada Lovelace<\/a><\/td><\/tr>/s)
    expect(list.text).not.toContain("<th scope=\"col\">currency</th>")
  })

  it("offers the filters the API takes, enums as selects, and shows the API's own words for one it refuses", async () => {
    const { text } = await page("/dashboard/resources/payments")
    expect(text).toMatch(/<select id="f-status" name="status"><option value="">any<\/option><option value="pending_customer_approval">/)
    expect(text).toMatch(/<select id="f-currency" name="currency">.*<option value="GBP">GBP<\/option>/s)
    expect(text).toMatch(/<input id="f-mandate" name="mandate"/)
    // What GET /payments takes is what the form offers: nothing it does not.
    const offered = [...text.matchAll(/ id="f-([a-z_]+)"/g)].map((m) => m[1])
    const refused = await json(await api(server.url, DASHBOARD_TOKEN, `/payments?${offered.map((name) => `${name}=x`).join("&")}`))
    expect(JSON.stringify(refused)).not.toContain("invalid_filters")
    const filtered = await page("/dashboard/resources/payments?status=confirmed")
    expect(filtered.text).toContain('<option value="confirmed" selected>confirmed</option>')

    // A filter the API refuses (typed into the address bar): the API's message, not "Validation failed".
    const answer = await api(server.url, DASHBOARD_TOKEN, "/payments?nonsense_filter=1")
    const apiMessage = String(((await json(answer))["error"] as Record<string, unknown>)["message"])
    const refusal = await page("/dashboard/resources/payments?nonsense_filter=1")
    expect(refusal.status).toBe(answer.status)
    expect(refusal.text).toContain(`<div role="alert"><p>${escaped(apiMessage)}</p>`)
    expect(refusal.text).not.toContain("Validation failed")
  })
})

describe("what an action ran", () => {
  it("a scenario says the events it made and the endpoints they are queued for, once; a status no scenario starts from says why", async () => {
    const receiver = await startReceiver("dashboard-reading-receiver-secret")
    try {
      await api(server.url, DASHBOARD_TOKEN, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: receiver.url, secret: "dashboard-reading-receiver-secret" } } })
      const payment = await bacsPayment(client)
      const mandate = (await client.payments.find(payment)).links?.mandate ?? ""
      await client.scenarioSimulators.run("mandate_activated", { links: { resource: mandate } } as never)
      const before = await page(`/dashboard/resources/payments/${payment}`)
      const ran = await post(server.url, cookie, "/dashboard/scenarios/payment_confirmed", { csrf_token: csrfOf(before.text), collection: "payments", resource: payment })
      expect(ran.status).toBe(303)
      expect(ran.headers.get("set-cookie")).toMatch(/^paykit_dashboard_outcome=[A-Za-z0-9_-]+; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=60$/)
      const after = await get(server.url, withOutcome(ran), ran.headers.get("location") ?? "")
      const text = await after.text()
      expect(text).toContain(`<div class="outcome" role="status"><p>Ran payment_confirmed on ${payment}. It made 2 events: payments.submitted ${payment}, payments.confirmed ${payment}. They are queued as webhooks to 1 enabled endpoint.</p></div>`)
      // Shown once: the answer forgets it.
      expect(after.headers.get("set-cookie")).toMatch(/^paykit_dashboard_outcome=; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=0$/)
      expect((await page(`/dashboard/resources/payments/${payment}`)).text).not.toContain('role="status"')

      // Confirmed: no payment scenario starts there, and the page says where they do.
      expect(text).toContain("No scenario simulator starts from confirmed. The payment scenarios start:")
      expect(text).toContain("<li><code>payment_paid_out</code>: from pending_submission</li>")
      expect(text).toContain("<li><code>payment_charged_back</code>: from pending_submission or paid_out</li>")
      expect(text).not.toContain("Run payment_")
    } finally {
      await receiver.close()
    }
  })

  it("an advance says how far, where the clock is now, and what the day's run made", async () => {
    // A confirmed payment: the next daily run pays it out.
    const payment = await bacsPayment(client)
    await client.scenarioSimulators.run("mandate_activated", { links: { resource: (await client.payments.find(payment)).links?.mandate ?? "" } } as never)
    await client.scenarioSimulators.run("payment_confirmed", { links: { resource: payment } } as never)
    const home = await page("/dashboard")
    const advanced = await post(server.url, cookie, "/dashboard/clock/advance", { csrf_token: csrfOf(home.text), by: "P2D" })
    expect(advanced.status).toBe(303)
    const text = await (await get(server.url, withOutcome(advanced), "/dashboard")).text()
    expect(text).toMatch(/<div class="outcome" role="status"><p>Advanced the clock by P2D\. The organisation&#39;s clock is now \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. It made \d+ events?: [^<]*payments\.paid_out[^<]*\.<\/p><\/div>/)
  })

  it("disabling an endpoint says so, and the endpoints show whether each is enabled", async () => {
    const made = await json(await api(server.url, DASHBOARD_TOKEN, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: "https://example.com/hook" } } }))
    const id = String((made["webhook_endpoints"] as Record<string, unknown>)["id"])
    const endpoint = await page(`/dashboard/resources/webhook_endpoints/${id}`)
    expect(endpoint.text).toContain('<dt>enabled</dt><dd><span class="badge badge-good">enabled</span></dd>')
    const disabled = await post(server.url, cookie, `/dashboard/webhook_endpoints/${id}/disable`, { csrf_token: csrfOf(endpoint.text) })
    const text = await (await get(server.url, withOutcome(disabled), disabled.headers.get("location") ?? "")).text()
    expect(text).toContain(`<p>Disabled ${id}: paykit sends it no more webhooks.</p>`)
    expect(text).toContain('<dt>enabled</dt><dd><span class="badge badge-bad">disabled</span></dd>')
    expect((await page("/dashboard/webhooks")).text).toMatch(new RegExp(`${id}</code></a></td>.*<span class="badge badge-bad">disabled</span>`, "s"))
  })

  it("a read-only session is told why it has no scenario buttons", async () => {
    const payment = await bacsPayment(client)
    const token = await server.runtime.runPromise(issueAccessToken({ id: "AT_dashboard_reading_ro", organisation: server.boot.organisation.id, scope: "read_only" }))
    const { text } = await page(`/dashboard/resources/payments/${payment}`, await signedIn(server.url, token))
    expect(text).toContain("A read-only token cannot run them; sign in with a read-write token.")
    expect(text).not.toContain("Run payment_")
  })
})
