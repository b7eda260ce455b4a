import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { serverUrl } from "@paykit/http"
import { dailyRunKey, DuePolling, DueWorkSchedule, PAYKIT_METRICS, RETENTION_KIND } from "@paykit/engine"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { Bootstrap, makeServer, MetricsEndpoint, type ServerConfig, type ServerLogLine } from "../src/index.ts"
import { api, bacsMandate, localClient, testConfig, testLogs } from "./harness.ts"
import { fromTemplate } from "./pglite-template.ts"
import { type Sample, samplesOf, valueOf } from "./metrics-support.ts"

const SECRET = "paykit-metrics-webhook-secret-01"
const TOKEN = "paykit_metrics_test_token_0001"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A sandbox server with its metrics listener on a free port and the sandbox organisation's webhooks going to `receiver`. */
const start = async (receiver: Receiver) => {
  const lines: Array<ServerLogLine> = []
  const config: ServerConfig = {
    ...testConfig({ sandboxToken: TOKEN }),
    metricsPort: 0,
    webhooks: { endpoint: Option.some({ url: receiver.url, secret: Redacted.make(SECRET) }), secretKey: Option.none(), keyDir: undefined }
  }
  const template = fromTemplate()
  const runtime = ManagedRuntime.make(makeServer(config, template === undefined ? {} : { sqlClient: template }).pipe(Layer.provide(testLogs(lines))))
  cleanups.push(() => runtime.dispose())
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const metricsUrl = (await runtime.runPromise(Effect.gen(function*() { return yield* MetricsEndpoint }))).url ?? ""
  return { runtime, url, boot, metricsUrl }
}

const scrape = async (url: string): Promise<string> => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/plain")
  return response.text()
}

/** Waits (real time, polling) until `done` holds: the worker delivers on its own. */
const eventually = async (done: () => boolean | Promise<boolean>, what: string, limitMs = 20_000) => {
  const until = Date.now() + limitMs
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const one = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}): number => {
  const value = valueOf(samples, name, labels)
  if (value === undefined) throw new Error(`no sample ${name} ${JSON.stringify(labels)}`)
  return value
}

describe("GET /metrics (PAYKIT_METRICS_PORT)", () => {
  it("after a journey (customer, bank account, mandate, payment, the clock advanced, webhooks delivered) every series is there with sensible values, by route template, and no id, organisation or token in the text", { timeout: 120_000 }, async () => {
    const receiver = await startReceiver(SECRET)
    cleanups.push(() => receiver.close())
    const server = await start(receiver)
    const client = localClient(TOKEN, server.url)
    const mandate = await bacsMandate(client, server.boot.creditor ?? "")
    const payment = await client.payments.create({ amount: 1500, currency: "GBP", links: { mandate } } as never)
    await client.payments.find(payment.id ?? "")
    expect((await api(server.url, TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by: "P7D" } })).status).toBe(200)
    await eventually(() => receiver.received.length > 0, "a webhook delivered")

    const text = await scrape(server.metricsUrl)
    const samples = samplesOf(text)
    // Requests by template: the payment read under `/payments/:id`, never its id.
    expect(one(samples, "paykit_http_requests_total", { route: "/payments/:id", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1)
    expect(one(samples, "paykit_http_requests_total", { route: "/payments", method: "POST", status: "201" })).toBe(1)
    expect(one(samples, "paykit_http_requests_total", { route: "/customers", method: "POST", status: "201" })).toBe(1)
    expect(one(samples, "paykit_http_request_duration_seconds_count", { route: "/mandates", method: "POST" })).toBe(1)
    expect(one(samples, "paykit_http_request_duration_seconds_sum", { route: "/mandates", method: "POST" })).toBeGreaterThan(0)
    // Due work: the advance ran the daily runs; the worker the deliveries.
    expect(one(samples, "paykit_due_work_items_total", { kind: "daily_run", outcome: "done" })).toBeGreaterThanOrEqual(7)
    expect(one(samples, "paykit_due_work_lag_seconds_count", { kind: "daily_run" })).toBeGreaterThanOrEqual(7)
    expect(one(samples, "paykit_due_work_lag_seconds_count", { kind: "webhook_delivery" })).toBeGreaterThanOrEqual(1)
    expect(one(samples, "paykit_due_work_pending", { kind: "daily_run" })).toBeGreaterThanOrEqual(0)
    expect(one(samples, "paykit_due_work_pending", { kind: "webhook_delivery" })).toBeGreaterThanOrEqual(0)
    expect(one(samples, "paykit_outbox_depth")).toBeGreaterThanOrEqual(0)
    expect(one(samples, "paykit_webhook_deliveries_total", { outcome: "success" })).toBeGreaterThanOrEqual(1)
    expect(one(samples, "paykit_webhook_delivery_duration_seconds_count", { outcome: "success" })).toBeGreaterThanOrEqual(1)
    expect(one(samples, "paykit_db_statement_duration_seconds_count", { statement: "resources.get" })).toBeGreaterThan(0)
    expect(one(samples, "paykit_db_statement_duration_seconds_count", { statement: "due_work.claim" })).toBeGreaterThan(0)
    // The process's own.
    expect(one(samples, "process_cpu_seconds_total")).toBeGreaterThan(0)
    expect(one(samples, "process_resident_memory_bytes")).toBeGreaterThan(0)
    expect(one(samples, "nodejs_heap_used_bytes")).toBeGreaterThan(0)
    expect(one(samples, "nodejs_eventloop_lag_seconds", { quantile: "0.99" })).toBeGreaterThanOrEqual(0)
    // Every series of the catalogue is exported, and nothing else.
    const exported = new Set(samples.map((sample) => sample.family))
    for (const metric of PAYKIT_METRICS) expect(exported, metric.name).toContain(metric.name)
    expect([...exported].filter((name) => !PAYKIT_METRICS.some((metric) => metric.name === name))).toEqual([])
    // Labels name kinds of things, never the things.
    expect(text).not.toMatch(/\b[A-Z]{2,3}[0-9A-HJKMNP-TV-Z]{12}\b/)
    for (const secret of [TOKEN, server.boot.organisation.id, mandate, payment.id ?? "", server.boot.creditor ?? ""]) expect(text).not.toContain(secret)

    // Never on the API's port.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
  })

  it("the lag histogram moves when the worker is paused and resumed: an item due while paused runs later by at least the pause", { timeout: 60_000 }, async () => {
    const receiver = await startReceiver(SECRET)
    cleanups.push(() => receiver.close())
    const server = await start(receiver)
    const run = <A, E>(effect: Effect.Effect<A, E, DuePolling | DueWorkSchedule>) => server.runtime.runPromise(effect)
    const lagOf = async () => {
      const samples = samplesOf(await scrape(server.metricsUrl))
      return { count: valueOf(samples, "paykit_due_work_lag_seconds_count", { kind: RETENTION_KIND }) ?? 0, sum: valueOf(samples, "paykit_due_work_lag_seconds_sum", { kind: RETENTION_KIND }) ?? 0 }
    }
    const before = await lagOf()
    await run(Effect.flatMap(DuePolling, (polling) => polling.pause))
    // The organisation's retention run, asked for now (as an operator would): due at once, held by the pause.
    const dueAt = Date.now()
    await run(Effect.flatMap(DueWorkSchedule, (schedule) => schedule.schedule({ organisation: server.boot.organisation.id, kind: RETENTION_KIND, key: dailyRunKey(dueAt), dueAt })))
    const pausedMs = 1_500
    await new Promise((resolve) => setTimeout(resolve, pausedMs))
    // Nothing ran meanwhile, and the backlog shows it.
    expect((await lagOf()).count).toBe(before.count)
    expect(valueOf(samplesOf(await scrape(server.metricsUrl)), "paykit_due_work_pending", { kind: RETENTION_KIND })).toBeGreaterThanOrEqual(1)
    await run(Effect.flatMap(DuePolling, (polling) => polling.resume))
    await eventually(async () => (await lagOf()).count > before.count, "the retention run after the resume")
    const after = await lagOf()
    expect(after.sum - before.sum).toBeGreaterThanOrEqual(pausedMs / 1000)
  })
})
