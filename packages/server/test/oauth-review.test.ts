import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebhookEndpoints } from "@paykit/engine"
import { OAuthStore } from "../src/index.ts"
import { api, SERVER_DATABASES, type TestServer } from "./harness.ts"
import { connectUrlOf, connectWith, consent, exchange, form, type RegisteredApp, registerApp, type TokenAnswer } from "./oauth-support.ts"

/** The review's fixes to the OAuth work (docs/oauth.md, "Token states"), over HTTP, on each database. */

const reasonOf = async (server: TestServer, token: string) => {
  const response = await api(server.url, token, "/creditors")
  return response.status === 200 ? "ok" : (await response.json() as { error: { errors: ReadonlyArray<{ reason: string }> } }).error.errors[0]?.reason
}

describe.each(SERVER_DATABASES)("OAuth token states on %s", (_name, start) => {
  let server: TestServer
  let connect: string
  let own: string
  beforeAll(async () => {
    server = await start()
    connect = await connectUrlOf(server)
    own = server.boot.accessToken ?? ""
  })
  afterAll(() => server.close())

  const revoke = (app: RegisteredApp, token: string) => form(`${connect}/oauth/revoke`, { client_id: app.client_id, client_secret: app.client_secret, token })
  const partnerEndpoints = () =>
    server.runtime.runPromise(Effect.flatMap(WebhookEndpoints, (e) => e.list(OrganisationId(server.boot.organisation.id), {})) as unknown as Effect.Effect<{ items: ReadonlyArray<{ id: string; enabled: boolean; url: string }> }>)

  it("a revoked token stays revoked through a reconnect and the app's disabling", async () => {
    const app = await registerApp(server, own)
    const first = await connectWith(connect, app, own)
    expect((await revoke(app, first.access_token)).status).toBe(200)
    const second = await connectWith(connect, app, own)
    expect(await reasonOf(server, first.access_token)).toBe("access_token_revoked")
    await api(server.url, own, `/oauth_apps/${app.id}/actions/disable`, { method: "POST" })
    expect(await reasonOf(server, first.access_token)).toBe("access_token_revoked")
    expect(await reasonOf(server, second.access_token)).toBe("access_token_not_active")
  })

  it("a token of a disabled app is refused even if its own status was never changed", async () => {
    const app = await registerApp(server, own)
    const token = await connectWith(connect, app, own)
    // What a token issued in a race with disableApp looks like: the app disabled, the token still active.
    await server.runtime.runPromise(Effect.flatMap(OAuthStore, (store) => store.moveApp(app.id, "disable")))
    expect(await reasonOf(server, token.access_token)).toBe("access_token_not_active")
  })

  it("revoking an earlier, already inactive token keeps the current connection's webhooks", async () => {
    const app = await registerApp(server, own, { webhook_url: "https://hooks.app.example/paykit" })
    const first = await connectWith(connect, app, own)
    const second = await connectWith(connect, app, own)
    const enabledNow = async () => (await partnerEndpoints()).items.filter((e) => e.url === "https://hooks.app.example/paykit").map((e) => e.enabled)
    expect(await enabledNow()).toEqual([true])
    expect((await revoke(app, first.access_token)).status).toBe(200)
    expect(await enabledNow()).toEqual([true])
    expect(await reasonOf(server, second.access_token)).toBe("ok")
    expect((await revoke(app, second.access_token)).status).toBe(200)
    expect(await enabledNow()).toEqual([false])
  })

  const codeFor = async (app: RegisteredApp) =>
    (await consent(connect, app, { decision: "allow", account: "login", access_token: own, email: "owner@merchant.example" })).searchParams.get("code") ?? ""

  it("two exchanges at once for one app and organisation leave exactly one token active", async () => {
    const app = await registerApp(server, own)
    const codes = [await codeFor(app), await codeFor(app)]
    const answers = await Promise.all(codes.map(async (code) => await (await exchange(connect, app, code)).json() as TokenAnswer))
    const reasons = await Promise.all(answers.map((a) => reasonOf(server, a.access_token)))
    expect(reasons.filter((r) => r === "ok").length).toBe(1)
    expect(reasons.filter((r) => r === "access_token_not_active").length).toBe(1)
  })

  it("a code used twice at once: the token the first use issued ends revoked", async () => {
    const app = await registerApp(server, own)
    const code = await codeFor(app)
    const responses = await Promise.all([exchange(connect, app, code), exchange(connect, app, code)])
    const issued = responses.filter((r) => r.status === 200)
    expect(issued.length).toBe(1)
    const token = await (issued[0] as Response).json() as TokenAnswer
    expect(await reasonOf(server, token.access_token)).toBe("access_token_revoked")
  })

  it("the organisation's API cannot re-enable or re-point an app's endpoint after the app lost access", async () => {
    const app = await registerApp(server, own, { webhook_url: "https://hooks.partner.example/paykit" })
    const token = await connectWith(connect, app, own)
    expect((await revoke(app, token.access_token)).status).toBe(200)
    const endpoint = (await partnerEndpoints()).items.find((e) => e.url === "https://hooks.partner.example/paykit")
    for (const change of [{ enabled: true }, { url: "https://elsewhere.example/hook" }]) {
      const response = await api(server.url, own, `/webhook_endpoints/${endpoint?.id ?? ""}`, { method: "PUT", body: { webhook_endpoints: change } })
      expect(response.status).toBe(422)
      expect(await response.json()).toMatchObject({ error: { errors: [{ reason: "partner_app_endpoint" }] } })
    }
    expect((await partnerEndpoints()).items.find((e) => e.id === endpoint?.id)).toMatchObject({ enabled: false, url: "https://hooks.partner.example/paykit" })
  })

  it("the organisation may still turn an app's endpoint off with the standard PUT", async () => {
    const app = await registerApp(server, own, { webhook_url: "https://hooks.other-partner.example/paykit" })
    await connectWith(connect, app, own)
    const endpoint = (await partnerEndpoints()).items.find((e) => e.url === "https://hooks.other-partner.example/paykit")
    expect(endpoint).toMatchObject({ enabled: true })
    const response = await api(server.url, own, `/webhook_endpoints/${endpoint?.id ?? ""}`, { method: "PUT", body: { webhook_endpoints: { enabled: false } } })
    expect(response.status).toBe(200)
    expect((await partnerEndpoints()).items.find((e) => e.id === endpoint?.id)).toMatchObject({ enabled: false })
  })
})
