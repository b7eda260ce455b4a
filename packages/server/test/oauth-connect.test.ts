import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashToken } from "@paykit/http"
import { OAuthStore } from "../src/index.ts"
import { api, localClient, SERVER_DATABASES_AND_CITUS, startServer, type TestServer } from "./harness.ts"
import { authorizeUrl, CALLBACK, connectUrlOf, connectWith, consent, exchange, form, type RegisteredApp, registerApp, type TokenAnswer } from "./oauth-support.ts"

/** Issue 20: the connect server, RFC 6749's checks as tests, on each database (Citus too when CITUS_URL is set). */

const apiStatus = async (server: TestServer, token: string) => {
  const response = await api(server.url, token, "/creditors")
  return { status: response.status, reason: response.status === 200 ? undefined : (await response.json() as { error: { errors: ReadonlyArray<{ reason: string }> } }).error.errors[0]?.reason }
}

describe.each(SERVER_DATABASES_AND_CITUS)("the connect server on %s", (_name, start) => {
  let server: TestServer
  let connect: string
  let own: string
  let app: RegisteredApp
  beforeAll(async () => {
    server = await start()
    connect = await connectUrlOf(server)
    own = server.boot.accessToken ?? ""
    app = await registerApp(server, own)
  })
  afterAll(() => server.close())

  const params = (overrides: Record<string, string> = {}) => ({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: "read_write", state: "xyz/+=", ...overrides })

  it("listens on its own address, not the API's", () => {
    expect(connect).not.toBe(server.url)
  })

  it("connects an organisation: code and state to the redirect URI, the code exchanged for a token the official client uses", async () => {
    const location = await consent(connect, app, { decision: "allow", account: "login", access_token: own, email: "owner@merchant.example" }, { state: "a b&c" })
    expect(`${location.origin}${location.pathname}`).toBe("https://app.example/oauth/callback")
    expect(location.searchParams.get("from")).toBe("paykit")
    expect(location.searchParams.get("state")).toBe("a b&c")
    const response = await exchange(connect, app, location.searchParams.get("code") ?? "")
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    const token = await response.json() as TokenAnswer
    expect(token).toEqual({ access_token: expect.any(String), scope: "read_write", token_type: "bearer", email: "owner@merchant.example", organisation_id: server.boot.organisation.id })
    const creditors = await localClient(token.access_token, server.url).creditors.list()
    expect(creditors.creditors.length).toBe(1)
  })

  it("shows an error page, never a redirect, for an unknown client or an unregistered redirect URI", async () => {
    for (const query of [params({ client_id: "x".repeat(64) }), params({ redirect_uri: "https://evil.example/cb" }), params({ redirect_uri: `${CALLBACK}&x=1` }), { ...params(), client_id: "" }]) {
      const response = await fetch(authorizeUrl(connect, query), { redirect: "manual" })
      expect(response.status).toBe(400)
      expect(response.headers.get("location")).toBeNull()
      expect(response.headers.get("content-type")).toContain("text/html")
    }
  })

  it("redirects with the spec's errors and the state unchanged", async () => {
    const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
      [{ response_type: "" }, "invalid_request"],
      [{ scope: "" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "admin" }, "invalid_scope"]
    ]
    for (const [overrides, error] of cases) {
      const response = await fetch(authorizeUrl(connect, params(overrides)), { redirect: "manual" })
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location") ?? "")
      expect(location.searchParams.get("error")).toBe(error)
      expect(location.searchParams.get("error_description")).toBeTruthy()
      expect(location.searchParams.get("state")).toBe("xyz/+=")
    }
    const declined = await consent(connect, app, { decision: "deny" })
    expect(declined.searchParams.get("error")).toBe("access_denied")
    expect(declined.searchParams.get("code")).toBeNull()
  })

  it("refuses a consent post without its CSRF token", async () => {
    const response = await form(`${connect}/oauth/authorize`, { ...params(), decision: "allow", account: "login", access_token: own, email: "a@b.example" })
    expect(response.status).toBe(400)
    expect(response.headers.get("location")).toBeNull()
  })

  it("escapes what the page shows", async () => {
    const named = await registerApp(server, own, { name: "<script>alert(1)</script>" })
    const page = await (await fetch(authorizeUrl(connect, params({ client_id: named.client_id })))).text()
    expect(page).not.toContain("<script>alert(1)</script>")
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
  })

  it("a code is single-use: its reuse is refused and revokes the token it issued", async () => {
    const location = await consent(connect, app, { decision: "allow", account: "login", access_token: own, email: "a@b.example" })
    const code = location.searchParams.get("code") ?? ""
    const token = await (await exchange(connect, app, code)).json() as TokenAnswer
    expect(await apiStatus(server, token.access_token)).toEqual({ status: 200, reason: undefined })
    const again = await exchange(connect, app, code)
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ error: "invalid_grant" })
    expect(await apiStatus(server, token.access_token)).toEqual({ status: 401, reason: "access_token_revoked" })
  })

  it("refuses a code for another redirect URI, an expired code, an unknown code", async () => {
    const location = await consent(connect, app, { decision: "allow", account: "login", access_token: own, email: "a@b.example" })
    const mismatch = await exchange(connect, app, location.searchParams.get("code") ?? "", "https://app.example/other")
    expect(await mismatch.json()).toMatchObject({ error: "invalid_grant" })
    const stale = "stale-code"
    await server.runtime.runPromise(Effect.flatMap(OAuthStore, (store) =>
      store.insertCode({ codeHash: hashToken(stale), app: app.id, organisation: server.boot.organisation.id, scope: "read_write", redirectUri: CALLBACK, email: "a@b.example", expiresAt: Date.now() - 1 })))
    expect(await (await exchange(connect, app, stale)).json()).toMatchObject({ error: "invalid_grant", error_description: "The code has expired" })
    expect(await (await exchange(connect, app, "nothing")).json()).toMatchObject({ error: "invalid_grant" })
  })

  it("answers the token endpoint's request errors in OAuth's format", async () => {
    const base = { client_id: app.client_id, client_secret: app.client_secret, code: "c", redirect_uri: CALLBACK }
    const missingGrant = await form(`${connect}/oauth/access_token`, base)
    expect([missingGrant.status, await missingGrant.json()]).toEqual([400, { error: "invalid_request", error_description: expect.any(String) }])
    const wrongGrant = await form(`${connect}/oauth/access_token`, { ...base, grant_type: "password" })
    expect(await wrongGrant.json()).toMatchObject({ error: "unsupported_grant_type" })
    const json = await fetch(`${connect}/oauth/access_token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...base, grant_type: "authorization_code" }) })
    expect(await json.json()).toMatchObject({ error: "invalid_request" })
  })

  it("invalid_client: 401, with WWW-Authenticate when HTTP Basic was used; a disabled app too", async () => {
    const fields = { grant_type: "authorization_code", code: "c", redirect_uri: CALLBACK }
    const body = await form(`${connect}/oauth/access_token`, { ...fields, client_id: app.client_id, client_secret: "wrong" })
    expect(body.status).toBe(401)
    expect(body.headers.get("www-authenticate")).toBeNull()
    expect(await body.json()).toMatchObject({ error: "invalid_client" })
    const basic = await form(`${connect}/oauth/access_token`, fields, { authorization: `Basic ${Buffer.from(`${app.client_id}:wrong`).toString("base64")}` })
    expect(basic.status).toBe(401)
    expect(basic.headers.get("www-authenticate")).toMatch(/^Basic /)
    // The right secret by HTTP Basic authenticates (the code is then what is wrong).
    const good = await form(`${connect}/oauth/access_token`, fields, { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}` })
    expect(await good.json()).toMatchObject({ error: "invalid_grant" })

    const gone = await registerApp(server, own)
    const location = await consent(connect, gone, { decision: "allow", account: "login", access_token: own, email: "a@b.example" })
    await api(server.url, own, `/oauth_apps/${gone.id}/actions/disable`, { method: "POST" })
    const refused = await exchange(connect, gone, location.searchParams.get("code") ?? "")
    expect([refused.status, await refused.json()]).toEqual([401, { error: "invalid_client", error_description: expect.any(String) }])
  })

  it("a reconnect disables the earlier token; introspect and revoke answer for the app's own tokens", async () => {
    const first = await connectWith(connect, app, own)
    const second = await connectWith(connect, app, own)
    expect(await apiStatus(server, first.access_token)).toEqual({ status: 401, reason: "access_token_not_active" })
    const credentials = { client_id: app.client_id, client_secret: app.client_secret }
    const introspect = async (token: string) => await (await form(`${connect}/oauth/introspect`, { ...credentials, token })).json() as Record<string, unknown>
    expect(await introspect(second.access_token)).toEqual({ active: true, scope: "read_write", token_type: "bearer", organisation_id: server.boot.organisation.id, email: "owner@merchant.example" })
    expect(await introspect(first.access_token)).toEqual({ active: false })
    expect(await introspect("unknown")).toEqual({ active: false })
    // Another app's token is not this app's to read or revoke.
    const other = await registerApp(server, own)
    const otherToken = await connectWith(connect, other, own)
    expect(await introspect(otherToken.access_token)).toEqual({ active: false })

    const revoked = await form(`${connect}/oauth/revoke`, { ...credentials, token: second.access_token })
    expect([revoked.status, await revoked.text()]).toEqual([200, ""])
    expect(await apiStatus(server, second.access_token)).toEqual({ status: 401, reason: "access_token_revoked" })
    expect(await introspect(second.access_token)).toEqual({ active: false })
    expect((await form(`${connect}/oauth/revoke`, { ...credentials, token: "unknown" })).status).toBe(200)
    expect(await (await form(`${connect}/oauth/revoke`, credentials)).json()).toMatchObject({ error: "invalid_request" })
  })

  it("a read_only token reads and is refused every write with the spec's error", async () => {
    const token = await connectWith(connect, app, own, "read_only")
    expect(token.scope).toBe("read_only")
    expect((await api(server.url, token.access_token, "/customers")).status).toBe(200)
    const write = await api(server.url, token.access_token, "/customers", { method: "POST", body: { customers: { email: "p@example.com", given_name: "P", family_name: "Q" } } })
    expect(write.status).toBe(403)
    expect(await write.json()).toMatchObject({ error: { type: "invalid_api_usage", errors: [{ reason: "insufficient_permissions" }] } })
  })

  it("in the sandbox, signing up makes a new organisation with its creditor", async () => {
    const location = await consent(connect, app, { decision: "allow", account: "signup", organisation_name: "Corner Shop", country_code: "GB", email: "shop@example.com" })
    const token = await (await exchange(connect, app, location.searchParams.get("code") ?? "")).json() as TokenAnswer
    expect(token.organisation_id).not.toBe(server.boot.organisation.id)
    const creditors = await localClient(token.access_token, server.url).creditors.list()
    expect(creditors.creditors.map((c) => c.name)).toEqual(["Corner Shop"])
  })
})

describe("the connect server of a live server", () => {
  it("offers no signup: a user logs in with their organisation's token", async () => {
    const server = await startServer({ mode: "live" })
    try {
      const connect = await connectUrlOf(server)
      const own = server.boot.accessToken ?? ""
      const app = await registerApp(server, own)
      const query = { response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: "read_write" }
      const page = await (await fetch(authorizeUrl(connect, query))).text()
      expect(page).not.toContain("name=\"account\" value=\"signup\"")
      expect(page).toContain("name=\"account\" value=\"login\"")
      const signup = await form(`${connect}/oauth/authorize`, { ...query, initial_view: "signup", csrf_token: /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? "", decision: "allow", account: "signup", organisation_name: "Shop", country_code: "GB", email: "a@b.example" })
      expect(signup.status).toBe(200)
      expect(await signup.text()).toContain("not an active token")
      const token = await connectWith(connect, app, own)
      expect(token.organisation_id).toBe(server.boot.organisation.id)
    } finally {
      await server.close()
    }
  })
})
