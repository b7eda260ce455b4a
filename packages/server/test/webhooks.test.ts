import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { serverUrl } from "@paykit/http"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { Bootstrap, makeLiveServer, makeSandboxServer, type ServerConfig, type ServerLogLine } from "../src/index.ts"
import { WEBHOOK_RETRY_DELAYS_MS } from "@paykit/engine"
import { api, CITUS_SETTINGS, CITUS_URL, fulfilledMandateRequest, json, localClient, tempDataDir, testConfig, testLogs } from "./harness.ts"
import { freshDatabase } from "./scale-out-support.ts"

const SECRET = "paykit-sandbox-webhook-secret-01"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const start = async (config: ServerConfig) => {
  const lines: Array<ServerLogLine> = []
  // The composition's own type (makeServer narrows it to ServerServices): the delivery side is built on its services.
  const server = config.mode === "live" ? makeLiveServer(config, { webhookTimeoutMs: 2_000 }) : makeSandboxServer(config, { webhookTimeoutMs: 2_000 })
  const runtime = ManagedRuntime.make(server.pipe(Layer.provide(testLogs(lines))))
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  return { runtime, url, boot, lines, close: () => runtime.dispose() }
}

/** Waits (real time, polling) until `done` holds: deliveries are the worker's, made without any advance. */
const eventually = async (done: () => boolean, what: string, limitMs = 15_000) => {
  const until = Date.now() + limitMs
  while (!done()) {
    if (Date.now() > until) throw new Error(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

type Body = { readonly events: ReadonlyArray<{ readonly resource_type: string; readonly action: string; readonly links: Record<string, string> }> }
const verifiedBodies = (receiver: Receiver): ReadonlyArray<Body> =>
  receiver.received.flatMap((r) => Array.isArray(r.parsed) ? [JSON.parse(r.body) as Body] : [])
const hasMandateCreated = (receiver: Receiver, mandate: string) =>
  verifiedBodies(receiver).some((b) => b.events.some((e) => e.resource_type === "mandates" && e.action === "created" && e.links["mandate"] === mandate))

/** paykit's `response_time_ms` on a webhook record (not in the official client's types). */
const responseTimeOf = (record: object): unknown => (record as { readonly response_time_ms?: unknown }).response_time_ms

const withWebhook = (config: ServerConfig, receiver: Receiver): ServerConfig => ({
  ...config,
  webhooks: {
    endpoint: Option.some({ url: receiver.url, secret: Redacted.make(SECRET) }),
    secretKey: Option.none(),
    keyDir: undefined
  }
})

describe("webhooks through the server", () => {
  it("PAYKIT_WEBHOOK_URL gets a new mandate's created event, signed, within seconds and without an advance; the official client lists, finds and retries the records; a restart keeps one endpoint", { timeout: 120_000 }, async () => {
    const receiver = await startReceiver(SECRET)
    const data = tempDataDir()
    cleanups.push(() => data.remove(), () => receiver.close())
    const config = withWebhook({ ...testConfig({ dataDir: data.dir }), sandboxToken: Option.some(Redacted.make("paykit_webhook_test_token_0001")) }, receiver)
    const token = "paykit_webhook_test_token_0001"

    const first = await start(config)
    const client = localClient(token, first.url)
    const { mandate } = await fulfilledMandateRequest(client)
    // The worker pumps the outbox and delivers: the official client's parse verified the body.
    await eventually(() => hasMandateCreated(receiver, mandate), "the mandate's created event")
    expect(receiver.received.every((r) => Array.isArray(r.parsed))).toBe(true)

    const records = await client.webhooks.list({ successful: true })
    const bodies = new Set(receiver.received.map((r) => r.body))
    expect(records.webhooks.length).toBeGreaterThan(0)
    expect(records.webhooks.every((r) => bodies.has(r.request_body ?? ""))).toBe(true)
    const record = records.webhooks[0]
    const found = await client.webhooks.find(record?.id ?? "")
    expect(found.request_body).toBe(record?.request_body)
    expect(found.response_code).toBe(200)
    expect(responseTimeOf(found)).toBeGreaterThanOrEqual(0)
    // The retry meets a receiver that takes 300 ms: the record says how long the answer took.
    receiver.answer({ _tag: "slow", delayMs: 300 })
    const retried = await client.webhooks.retry(record?.id ?? "")
    expect(responseTimeOf(retried)).toBeGreaterThanOrEqual(300)
    expect(retried.id).not.toBe(record?.id)
    expect(retried.request_body).toBe(record?.request_body)
    expect(retried.successful).toBe(true)
    expect(receiver.received.at(-1)?.body).toBe(record?.request_body)
    expect((await client.webhooks.list({ is_test: true })).webhooks).toHaveLength(0)

    const endpoints = await json(await api(first.url, token, "/webhook_endpoints"))
    expect(endpoints["webhook_endpoints"]).toEqual([expect.objectContaining({ url: receiver.url, enabled: true, signature_scheme: "gocardless" })])
    expect(JSON.stringify(endpoints)).not.toMatch(/secret/)
    await first.close()

    // A restart on the same data directory: the same endpoint, its secret still opening with the key file.
    const second = await start(config)
    cleanups.push(() => second.close())
    const again = await json(await api(second.url, token, "/webhook_endpoints"))
    expect(again["webhook_endpoints"]).toEqual(endpoints["webhook_endpoints"])
    const next = await fulfilledMandateRequest(localClient(token, second.url))
    await eventually(() => hasMandateCreated(receiver, next.mandate), "the second mandate's created event, signed with the secret kept across the restart")
    expect(receiver.received.every((r) => Array.isArray(r.parsed))).toBe(true)
  })

  it("POST /webhook_endpoints shows the secret once; PUT and disable change it; a live server refuses plain http and private addresses", { timeout: 60_000 }, async () => {
    const sandbox = await start(testConfig({ sandboxToken: "paykit_webhook_test_token_0002" }))
    cleanups.push(() => sandbox.close())
    const token = "paykit_webhook_test_token_0002"
    const made = await json(await api(sandbox.url, token, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: "http://127.0.0.1:9/hooks" } } }))
    const endpoint = made["webhook_endpoints"] as Record<string, unknown>
    expect(typeof endpoint["secret"]).toBe("string")
    expect(String(endpoint["secret"]).length).toBeGreaterThanOrEqual(32)
    const id = String(endpoint["id"])
    const shown = await json(await api(sandbox.url, token, `/webhook_endpoints/${id}`))
    expect(shown["webhook_endpoints"]).not.toHaveProperty("secret")
    const updated = await json(await api(sandbox.url, token, `/webhook_endpoints/${id}`, { method: "PUT", body: { webhook_endpoints: { signature_scheme: "standard_webhooks" } } }))
    expect(updated["webhook_endpoints"]).toMatchObject({ signature_scheme: "standard_webhooks", enabled: true })
    const disabled = await json(await api(sandbox.url, token, `/webhook_endpoints/${id}/actions/disable`, { method: "POST" }))
    expect(disabled["webhook_endpoints"]).toMatchObject({ enabled: false, disabled_reason: "disabled_by_user" })
    const listed = await json(await api(sandbox.url, token, "/webhook_endpoints?enabled=false"))
    expect((listed["webhook_endpoints"] as Array<unknown>).length).toBe(1)

    const live = await start(testConfig({ mode: "live" }))
    cleanups.push(() => live.close())
    const liveToken = live.boot.accessToken ?? ""
    for (const url of ["http://example.com/hooks", "https://127.0.0.1/hooks", "https://10.0.0.1/hooks", "https://169.254.169.254/latest"]) {
      const refused = await api(live.url, liveToken, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url } } })
      expect(refused.status).toBe(422)
      expect(JSON.stringify(await refused.json())).toMatch(/url/)
    }
    const ok = await api(live.url, liveToken, "/webhook_endpoints", { method: "POST", body: { webhook_endpoints: { url: "https://example.com/hooks" } } })
    expect(ok.status).toBe(201)
  })

  it("a failed delivery's retry falls due on the organisation's clock: an advance runs it before it answers", { timeout: 60_000 }, async () => {
    const receiver = await startReceiver(SECRET)
    cleanups.push(() => receiver.close())
    const token = "paykit_webhook_test_token_0003"
    // Every attempt the worker makes now fails; the retry is due WEBHOOK_RETRY_DELAYS_MS[0] later.
    receiver.answer(...Array.from({ length: 50 }, () => ({ _tag: "status", status: 500 }) as const))
    const server = await start(withWebhook(testConfig({ sandboxToken: token }), receiver))
    cleanups.push(() => server.close())
    const { mandate } = await fulfilledMandateRequest(localClient(token, server.url))
    await eventually(() => hasMandateCreated(receiver, mandate), "the mandate's created event, answered 500")
    // Healthy from here on; nothing is tried again before its retry falls due on the sandbox clock.
    receiver.healthy()
    const advanced = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: `PT${(WEBHOOK_RETRY_DELAYS_MS[0] ?? 0) / 1000}S` } })
    expect(advanced.status).toBe(200)
    // The advance answered after the retries ran: every body that met a 500 has since met a 200.
    const bodiesAnswered = (status: number) => new Set(receiver.received.filter((r) => r.answered === status).map((r) => r.body))
    const failed = bodiesAnswered(500)
    expect(failed.size).toBeGreaterThan(0)
    expect([...failed].every((body) => bodiesAnswered(200).has(body))).toBe(true)
    expect(receiver.received.every((r) => Array.isArray(r.parsed))).toBe(true)
  })
})


describe.skipIf(CITUS_URL === undefined)("webhooks through a server on Citus (CITUS_URL; skipped without it)", () => {
  it("a new mandate's created event arrives signed, without an advance; a failed delivery's retry runs in an advance; the records list", { timeout: 180_000 }, async () => {
    const receiver = await startReceiver(SECRET)
    const schema = await freshDatabase(CITUS_URL ?? "", CITUS_SETTINGS)
    cleanups.push(async () => void await schema.drop(), () => receiver.close())
    const token = "paykit_webhook_test_token_0004"
    const config = withWebhook({ ...testConfig({ sandboxToken: token }), database: { _tag: "Postgres", url: Redacted.make(schema.url) } }, receiver)
    const server = await start(config)
    cleanups.push(() => server.close())
    const client = localClient(token, server.url)
    const { mandate } = await fulfilledMandateRequest(client)
    await eventually(() => hasMandateCreated(receiver, mandate), "the mandate's created event", 60_000)
    expect(receiver.received.every((r) => Array.isArray(r.parsed))).toBe(true)
    expect((await client.webhooks.list({ successful: true })).webhooks.length).toBeGreaterThan(0)

    // A delivery answered 500 is retried on the organisation's clock, within the advance.
    receiver.answer(...Array.from({ length: 50 }, () => ({ _tag: "status", status: 500 }) as const))
    const next = await fulfilledMandateRequest(client)
    await eventually(() => hasMandateCreated(receiver, next.mandate), "the second mandate's created event, answered 500", 60_000)
    receiver.healthy()
    const advanced = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: `PT${(WEBHOOK_RETRY_DELAYS_MS[0] ?? 0) / 1000}S` } })
    expect(advanced.status).toBe(200)
    const bodiesAnswered = (status: number) => new Set(receiver.received.filter((r) => r.answered === status).map((r) => r.body))
    expect([...bodiesAnswered(500)].every((body) => bodiesAnswered(200).has(body))).toBe(true)
  })
})
