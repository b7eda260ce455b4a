import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import * as gocardless from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebhookEndpoints } from "@paykit/engine"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { fulfilledMandateRequest, localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"
import { approvePaymentPages, connectUrlOf, consent, exchange, registerApp, type TokenAnswer } from "./oauth-support.ts"

/**
 * Issue 20: an app with a webhook URL receives the events of each organisation connected to it,
 * in the same format plus `links.organisation`, signed with the app's webhook secret (shown once,
 * at registration); revoking the app's access stops them.
 */

type Body = { readonly events: ReadonlyArray<{ readonly resource_type: string; readonly action: string; readonly links: Record<string, string> }> }

const eventually = async (done: () => boolean, what: string, limitMs = 15_000) => {
  const until = Date.now() + limitMs
  while (!done()) {
    if (Date.now() > until) throw new Error(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe.each(SERVER_DATABASES)("an app's webhooks on %s", (_name, start) => {
  let server: TestServer
  let receiver: Receiver
  beforeAll(async () => {
    server = await start()
    // The receiver's own check is not used: the app's secret exists only once the app is registered.
    receiver = await startReceiver("not-the-app-secret")
  })
  afterAll(async () => {
    await receiver.close()
    await server.close()
  })

  it("delivers a connected organisation's events with links.organisation, signed with the app's secret, until access is revoked", { timeout: 60_000 }, async () => {
    const own = server.boot.accessToken ?? ""
    const app = await registerApp(server, own, { webhook_url: receiver.url }) as Awaited<ReturnType<typeof registerApp>> & { readonly webhook_secret: string }
    expect(app.webhook_secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const connect = await connectUrlOf(server)
    const location = await consent(connect, app, { decision: "allow", account: "signup", organisation_name: "Hooked Ltd", country_code: "GB", email: "h@hooked.example" })
    const token = await (await exchange(connect, app, location.searchParams.get("code") ?? "")).json() as TokenAnswer

    // The app's payment pages approved: its token may set up the mandate the events are about.
    await approvePaymentPages(server, app, true)
    const { mandate } = await fulfilledMandateRequest(localClient(token.access_token, server.url))
    const mandateCreated = () => receiver.received.flatMap((r) => (JSON.parse(r.body) as Body).events)
      .find((e) => e.resource_type === "mandates" && e.action === "created" && e.links["mandate"] === mandate)
    await eventually(() => mandateCreated() !== undefined, "the connected organisation's mandate created event")
    expect(mandateCreated()?.links["organisation"]).toBe(token.organisation_id)
    // Every body is signed with the app's secret, as the official client checks it; none is the app owner's.
    for (const request of receiver.received) {
      const events = gocardless.parse(request.body, app.webhook_secret, String(request.headers["webhook-signature"]))
      expect(events.length).toBeGreaterThan(0)
      expect((JSON.parse(request.body) as Body).events.every((e) => e.links["organisation"] === token.organisation_id)).toBe(true)
    }

    const revoked = await fetch(`${connect}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token: token.access_token }).toString()
    })
    expect(revoked.status).toBe(200)
    const endpoints = await server.runtime.runPromise(Effect.flatMap(WebhookEndpoints, (e) => e.list(OrganisationId(token.organisation_id), {})) as unknown as Effect.Effect<{ items: ReadonlyArray<{ enabled: boolean }> }>)
    expect(endpoints.items.map((e) => e.enabled)).toEqual([false])
  })
})
