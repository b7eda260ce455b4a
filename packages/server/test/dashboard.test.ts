import * as gocardless from "gocardless-nodejs"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DISPLAY_PREFIX_LENGTH, issueAccessToken, testValuesContent } from "@paykit/http"
import { makeSessionSealer, SESSION_LIFETIME_MS } from "../src/dashboard/session.ts"
import { api, json, localClient, startPostgresServer, startServer, type TestServer } from "./harness.ts"
import { csrfOf, DASHBOARD_TOKEN, get, post, signedIn, signIn } from "./dashboard-support.ts"
import { bacsPayment } from "./dashboard-setup.ts"
import { MOUNT, startPaykit, TOKEN } from "./mount-support.ts"
import { startReceiver } from "../../store-sql/test/webhooks/receiver.ts"

/**
 * The dashboard over HTTP: who may sign in, what a session may do, and what it may never see.
 * (The Chromium test, dashboard.browser.test.ts, uses it as a developer does.)
 */

let server: TestServer
let client: GoCardlessClient
beforeAll(async () => {
  server = await startServer({ sandboxToken: DASHBOARD_TOKEN })
  client = localClient(DASHBOARD_TOKEN, server.url)
})
afterAll(() => server.close())

const issue = (id: string, scope: "read_only" | "read_write", app?: { readonly organisation: string; readonly creditor: string }) =>
  server.runtime.runPromise(issueAccessToken({ id, organisation: server.boot.organisation.id, scope, ...(app === undefined ? {} : { app }) }))

/** The organisation's clock offset: what an advance changes. */
const offset = async () => ((await json(await api(server.url, DASHBOARD_TOKEN, "/sandbox/simulator/clock")))["simulator_clock"] as { readonly offset_ms: number }).offset_ms

describe("signing in", () => {
  it("sets an HttpOnly, SameSite=Strict session cookie on the dashboard's path, holding no token in clear", async () => {
    const form = await (await fetch(`${server.url}/dashboard/sign_in`)).text()
    const response = await fetch(`${server.url}/dashboard/sign_in`, {
      method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf_token: csrfOf(form), token: DASHBOARD_TOKEN }).toString()
    })
    expect(response.status).toBe(303)
    const cookie = response.headers.get("set-cookie") ?? ""
    expect(cookie).toMatch(/^paykit_dashboard=[A-Za-z0-9_-]+; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=28800$/)
    expect(cookie).not.toContain(DASHBOARD_TOKEN)
    const home = await get(server.url, cookie.split(";")[0] ?? "", "/dashboard")
    expect(home.status).toBe(200)
    const text = await home.text()
    expect(text).toContain(server.boot.organisation.id)
    // The sandbox's creditor is ready to be paid out.
    expect(text).toMatch(/Sandbox Creditor Ltd<\/td><td><span class="badge badge-good">successful<\/span><\/td><td>not held<\/td>/)
  })

  it("refuses a wrong token, a sign-in post without its CSRF token, and a partner app's token", async () => {
    expect((await signIn(server.url, "not-a-token")).cookie).toBeUndefined()
    const noCsrf = await fetch(`${server.url}/dashboard/sign_in`, {
      method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `token=${DASHBOARD_TOKEN}`
    })
    expect(noCsrf.headers.get("set-cookie")).toBeNull()
    const appToken = await issue("AT_dashboard_app", "read_write", { organisation: server.boot.organisation.id, creditor: server.boot.creditor ?? "" })
    const refused = await signIn(server.url, appToken)
    expect(refused.cookie).toBeUndefined()
    expect(refused.page).toContain("partner app")
  })

  it("without a session, or with an expired or forged cookie, every page leads to the sign-in page", async () => {
    const expired = makeSessionSealer(undefined).seal(DASHBOARD_TOKEN, Date.now() - 9 * 3_600_000)
    for (const cookie of ["", "paykit_dashboard=forged-value-0000000000000000000000000000000000000", `paykit_dashboard=${expired}`]) {
      const response = await get(server.url, cookie, "/dashboard/resources/payments")
      expect(response.status).toBe(303)
      expect(response.headers.get("location")).toBe("/dashboard/sign_in")
    }
    // A cookie this server sealed, one character changed: GCM's tag no longer verifies. (The
    // character's replacement depends on itself: chosen by its neighbour, it was sometimes itself.)
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const tampered = `${cookie.slice(0, -2)}${cookie.at(-2) === "A" ? "B" : "A"}${cookie.slice(-1)}`
    expect(tampered).not.toBe(cookie)
    expect((await get(server.url, tampered, "/dashboard")).status).toBe(303)
  })

  it("signing out ends the session's cookie", async () => {
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const page = await (await get(server.url, cookie, "/dashboard")).text()
    const out = await post(server.url, cookie, "/dashboard/sign_out", { csrf_token: csrfOf(page) })
    expect(out.status).toBe(303)
    expect(out.headers.get("set-cookie")).toMatch(/^paykit_dashboard=; .*Max-Age=0/)
  })
})

describe("the session's seal", () => {
  it("opens with its key until its expiry, never after it, never with another key, never edited", () => {
    const secret = new Uint8Array(32).fill(7)
    const sealer = makeSessionSealer(secret)
    const now = Date.now()
    const sealed = sealer.seal("a-token", now)
    expect(sealer.open(sealed, now + 1000)).toBe("a-token")
    expect(sealer.open(sealed, now + SESSION_LIFETIME_MS + 1)).toBeUndefined()
    expect(makeSessionSealer(new Uint8Array(32).fill(8)).open(sealed, now)).toBeUndefined()
    expect(sealer.open(`${sealed.slice(0, 30)}${sealed[30] === "A" ? "B" : "A"}${sealed.slice(31)}`, now)).toBeUndefined()
  })
})

describe("acting", () => {
  it("refuses a post without its CSRF token, and one with another session's", async () => {
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const before = await offset()
    expect((await post(server.url, cookie, "/dashboard/clock/advance", { by: "P1D" })).status).toBe(403)
    const another = await issue("AT_dashboard_csrf_other", "read_write")
    const otherPage = await (await get(server.url, await signedIn(server.url, another), "/dashboard")).text()
    expect((await post(server.url, cookie, "/dashboard/clock/advance", { by: "P1D", csrf_token: csrfOf(otherPage) })).status).toBe(403)
    expect(await offset()).toBe(before)
  })

  it("a read-only token sees the pages without their forms, and its posts are refused", async () => {
    const token = await issue("AT_dashboard_read_only", "read_only")
    const cookie = await signedIn(server.url, token)
    const home = await (await get(server.url, cookie, "/dashboard")).text()
    expect(home).toContain("Sandbox clock")
    expect(home).not.toContain("Advance 1 day")
    const webhooks = await (await get(server.url, cookie, "/dashboard/webhooks")).text()
    expect(webhooks).toContain("Endpoints")
    expect(webhooks).not.toContain("Create endpoint")
    expect(await (await get(server.url, cookie, "/dashboard/tokens")).text()).not.toContain("Create token")
    const before = await offset()
    const refused = await post(server.url, cookie, "/dashboard/clock/advance", { by: "P1D", csrf_token: csrfOf(home) })
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain("read-only")
    expect(await offset()).toBe(before)
  })
})

describe("webhooks", () => {
  it("sends a test webhook from an endpoint's page (signed with its secret, no events, recorded with is_test); rotates its secret", async () => {
    const secret = "dashboard-test-webhook-secret-0001"
    const receiver = await startReceiver(secret)
    try {
      const endpoint = await json(await api(server.url, DASHBOARD_TOKEN, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: receiver.url, secret } } }))
      const id = String((endpoint["webhook_endpoints"] as Record<string, unknown>)["id"])
      const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
      const page = await (await get(server.url, cookie, `/dashboard/resources/webhook_endpoints/${id}`)).text()
      expect(page).toContain("Send a test webhook")
      const sent = await post(server.url, cookie, `/dashboard/webhook_endpoints/${id}/test`, { csrf_token: csrfOf(page) })
      expect(sent.status).toBe(303)
      const record = (sent.headers.get("location") ?? "").split("/").at(-1) ?? ""
      expect(receiver.received).toHaveLength(1)
      expect(receiver.received[0]?.parsed).toEqual([])
      expect(JSON.parse(receiver.received[0]?.body ?? "")).toEqual({ events: [], meta: { webhook_id: record } })
      const stored = (await json(await api(server.url, DASHBOARD_TOKEN, `/webhooks/${record}`)))["webhooks"] as Record<string, unknown>
      expect(stored).toMatchObject({ is_test: true, successful: true, links: { webhook_endpoint: id } })
      expect((await post(server.url, cookie, "/dashboard/webhook_endpoints/WE%00/test", { csrf_token: csrfOf(page) })).status).toBe(404)

      // Rotated: the new secret is shown once, and the next attempt is signed with it, not the old.
      const rotated = await post(server.url, cookie, `/dashboard/webhook_endpoints/${id}/rotate_secret`, { csrf_token: csrfOf(page) })
      expect(rotated.status).toBe(200)
      const fresh = /id="secret">([^<]+)</.exec(await rotated.text())?.[1] ?? ""
      expect(fresh).toMatch(/^\S{20,}$/)
      expect(fresh).not.toBe(secret)
      await post(server.url, cookie, `/dashboard/webhook_endpoints/${id}/test`, { csrf_token: csrfOf(page) })
      const last = receiver.received.at(-1)
      expect(last?.parsed).toBeInstanceOf(Error)
      expect(gocardless.parse(last?.body ?? "", fresh, String(last?.headers["webhook-signature"]))).toEqual([])
    } finally {
      await receiver.close()
    }
  })
})

describe("test values", () => {
  it("shows the reference's own rendering of the sandbox test values, signed in only", async () => {
    const fragment = testValuesContent().markup
    expect(fragment).toContain("the creditor&#39;s first payout bounces")
    expect(await (await fetch(`${server.url}/docs`)).text()).toContain(fragment)
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const page = await (await get(server.url, cookie, "/dashboard/test-values")).text()
    expect(page).toContain(fragment)
    expect(page).toContain(`<a href="/dashboard/test-values">Test values</a>`)
    const anonymous = await fetch(`${server.url}/dashboard/test-values`, { redirect: "manual" })
    expect(anonymous.status).toBe(303)
  })
})

describe("access tokens", () => {
  it("makes a token shown once, lists it without its secret, and revoking it ends its sessions", async () => {
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const list = await (await get(server.url, cookie, "/dashboard/tokens")).text()
    const made = await post(server.url, cookie, "/dashboard/tokens", { scope: "read_only", csrf_token: csrfOf(list) })
    expect(made.status).toBe(201)
    const token = /id="new-token">([^<]+)</.exec(await made.text())?.[1] ?? ""
    expect(token).toMatch(/^paykit_ro_/)
    const listed = await (await get(server.url, cookie, "/dashboard/tokens")).text()
    expect(listed).not.toContain(token)
    const id = /<code>(AT[0-9A-Z]{12})<\/code><\/td><td><code>([\w-]+)…<\/code><\/td><td>read_only/.exec(listed)?.[1] ?? ""
    // Its prefix, the token's own first characters, is listed; the token is not.
    expect(listed).toContain(`<code>${token.slice(0, DISPLAY_PREFIX_LENGTH)}…</code>`)
    expect(id).not.toBe("")
    const theirs = await signedIn(server.url, token)
    expect((await get(server.url, theirs, "/dashboard")).status).toBe(200)
    expect((await post(server.url, cookie, `/dashboard/tokens/${id}/revoke`, { csrf_token: csrfOf(listed) })).status).toBe(303)
    expect((await get(server.url, theirs, "/dashboard")).headers.get("location")).toBe("/dashboard/sign_in")
  })

  it("never revokes another organisation's token", async () => {
    const made = await json(await api(server.url, DASHBOARD_TOKEN, "/sandbox/organisations", { method: "POST", body: {} }))
    const otherToken = String((made["organisations"] as Record<string, unknown>)["access_token"])
    const other = await signedIn(server.url, otherToken)
    const otherList = await (await get(server.url, other, "/dashboard/tokens")).text()
    const otherId = /<code>(AT[^<]+)<\/code> \(this session/.exec(otherList)?.[1] ?? ""
    expect(otherId).not.toBe("")
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const list = await (await get(server.url, cookie, "/dashboard/tokens")).text()
    expect((await post(server.url, cookie, `/dashboard/tokens/${otherId}/revoke`, { csrf_token: csrfOf(list) })).status).toBe(404)
    expect((await get(server.url, other, "/dashboard")).status).toBe(200)
  })
})

describe("tenancy and escaping", () => {
  it("a session of another organisation cannot open this one's payment, nor find it by id", async () => {
    const payment = await bacsPayment(client)
    const made = await json(await api(server.url, DASHBOARD_TOKEN, "/sandbox/organisations", { method: "POST", body: {} }))
    const other = await signedIn(server.url, String((made["organisations"] as Record<string, unknown>)["access_token"]))
    expect((await get(server.url, other, `/dashboard/resources/payments/${payment}`)).status).toBe(404)
    expect((await get(server.url, other, `/dashboard/search?id=${payment}`)).status).toBe(404)
    const own = await signedIn(server.url, DASHBOARD_TOKEN)
    expect((await get(server.url, own, `/dashboard/search?id=${payment}`)).headers.get("location")).toBe(`/dashboard/resources/payments/${payment}`)
  })

  it("a resource's metadata is shown as text, never as markup", async () => {
    const customer = await client.customers.create({ email: "x@example.com", given_name: "<script>alert(1)</script>", family_name: "Q", metadata: { note: "<img src=x onerror=alert(1)>" } } as never)
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const page = await (await get(server.url, cookie, `/dashboard/resources/customers/${customer.id ?? ""}`)).text()
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;")
    expect(page).not.toContain("<script>alert")
    expect(page).not.toContain("<img src=x")
  })
})

describe("on a live server", () => {
  it("signs in and shows the organisation, without the sandbox's banner, clock or scenarios", async () => {
    const live = await startServer({ mode: "live", sandboxToken: DASHBOARD_TOKEN })
    try {
      const token = await live.runtime.runPromise(issueAccessToken({ id: "AT_dashboard_live", organisation: live.boot.organisation.id, scope: "read_write" }))
      const cookie = await signedIn(live.url, token)
      const home = await (await get(live.url, cookie, "/dashboard")).text()
      expect(home).toContain(live.boot.organisation.id)
      expect(home).not.toContain("Sandbox clock")
      expect(home).not.toContain("<aside class=\"sandbox-banner\"")
      expect((await get(live.url, cookie, "/dashboard/resources/payments")).status).toBe(200)
    } finally {
      await live.close()
    }
  })
})

describe("mounted under a host's prefix", () => {
  it("its links, redirects and session cookie carry the prefix", async () => {
    const app = await startPaykit()
    try {
      const at = (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://localhost${MOUNT}${path}`, init))
      const form = await (await at("/dashboard/sign_in")).text()
      expect(form).toContain(`action="${MOUNT}/dashboard/sign_in"`)
      const signed = await at("/dashboard/sign_in", {
        method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: csrfOf(form), token: TOKEN }).toString()
      })
      expect(signed.status).toBe(303)
      expect(signed.headers.get("location")).toBe(`${MOUNT}/dashboard`)
      const cookie = signed.headers.get("set-cookie") ?? ""
      expect(cookie).toContain(`Path=${MOUNT}/dashboard;`)
      const home = await (await at("/dashboard", { headers: { cookie: cookie.split(";")[0] ?? "" } })).text()
      expect(home).toContain(`href="${MOUNT}/dashboard/resources/payments"`)
      expect(home).toContain(`href="${MOUNT}/dashboard/test-values"`)
      expect(home).toContain(`<script src="${MOUNT}/dashboard/assets/local-times.js" defer></script>`)
      expect((await at("/dashboard/assets/local-times.js")).status).toBe(200)
      expect(home).toContain(`<link rel="icon" href="${MOUNT}/dashboard/assets/favicon.svg"`)
      const values = await (await at("/dashboard/test-values", { headers: { cookie: cookie.split(";")[0] ?? "" } })).text()
      expect(values).toContain(`href="${MOUNT}/docs#test-values"`)
    } finally {
      await app.close()
    }
  })
})

describe.skipIf(process.env["DATABASE_URL"] === undefined)("on PostgreSQL", () => {
  it("lists the tokens and shows a payment's status history and events", async () => {
    const pg = await startPostgresServer(process.env["DATABASE_URL"] ?? "", { sandboxToken: DASHBOARD_TOKEN })
    try {
      const payment = await bacsPayment(localClient(DASHBOARD_TOKEN, pg.url))
      const cookie = await signedIn(pg.url, DASHBOARD_TOKEN)
      const tokens = await (await get(pg.url, cookie, "/dashboard/tokens")).text()
      expect(tokens).toMatch(/read_write<\/td><td>active<\/td><td><time datetime="\d{4}-\d{2}-\d{2}T[^"]+Z"/)
      const page = await (await get(pg.url, cookie, `/dashboard/resources/payments/${payment}`)).text()
      expect(page).toContain("Status history, oldest first")
      expect(page).toContain("pending_submission")
      expect(page).toContain("Event timeline")
    } finally {
      await pg.close()
    }
  })
})
