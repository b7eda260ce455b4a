import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes, randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPaykitApp, type PaykitApp, type ServerLogLine } from "../src/index.ts"
import { api, json, localClient } from "./harness.ts"
import { MOUNT, TOKEN } from "./mount-support.ts"
import { isRunning } from "./child-server.ts"

/**
 * `dueWork: "worker-process"`: the host's process serves the API and runs no due work; a child it
 * forked runs the worker and the webhook pump on the same PostgreSQL database. A payment made
 * through the mounted app reaches paid out, and its webhooks are delivered (only a worker pumps
 * the outbox) to a receiver on 127.0.0.1; `close()` leaves no child process. On PGlite the option
 * is refused.
 */

const databaseUrl = process.env["DATABASE_URL"]

interface Delivered {
  readonly resource_type: string
  readonly action: string
  readonly links: Readonly<Record<string, string>>
}

/** A port free now, given to the app by number as an operator would. */
const freeMetricsPort = () => {
  const probe = createServer()
  return new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => {
    const port = (probe.address() as AddressInfo).port
    probe.close(() => resolve(port))
  }))
}

const listenOn = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

describe("dueWork: worker-process", () => {
  it("is refused without databaseUrl: one process owns a PGlite database", async () => {
    await expect(createPaykitApp({ dueWork: "worker-process", log: () => {}, requestLog: () => {} })).rejects.toThrow(/needs databaseUrl/)
  })
})

describe.skipIf(databaseUrl === undefined)("dueWork: worker-process on PostgreSQL", () => {
  const schema = `paykit_wp_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const delivered: Array<Delivered> = []
  const lines: Array<ServerLogLine> = []
  // One key for every start on the schema: a start with another is refused (the key check).
  const key = randomBytes(32).toString("hex")
  const receiver = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => void (body += chunk.toString("utf8")))
    req.on("end", () => {
      delivered.push(...(JSON.parse(body) as { events: ReadonlyArray<Delivered> }).events)
      res.writeHead(204).end()
    })
  })
  const host = createServer((req, res) => paykit.handleNode(req, res))
  let paykit: PaykitApp
  let origin: string
  beforeAll(async () => {
    const hooks = await listenOn(receiver)
    paykit = await createPaykitApp({
      databaseUrl: databaseUrl ?? "",
      schema,
      basePath: MOUNT,
      sandboxToken: TOKEN,
      webhookUrl: `${hooks}/hooks`,
      webhookSecret: "worker-process-webhook-secret-0001",
      webhookSecretKey: key,
      workerPollMs: 100,
      dueWork: "worker-process",
      // A port of the host's own, asked for by number: the child must not take it too.
      metricsPort: await freeMetricsPort(),
      log: (line) => void lines.push(line),
      requestLog: () => {}
    })
    origin = await listenOn(host)
  }, 120_000)
  afterAll(async () => {
    host.close()
    receiver.close()
    await paykit?.close()
    await Effect.runPromise(Effect.provide(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
      PgClient.layer({ url: Redacted.make(databaseUrl ?? ""), maxConnections: 1 })
    ))
  })

  it("a payment made through the app is paid out, and the child delivers its webhooks; close() ends the child", { timeout: 180_000 }, async () => {
    const pid = paykit.workerPid ?? 0
    expect(pid).toBeGreaterThan(0)
    expect(pid).not.toBe(process.pid)
    expect(isRunning(pid)).toBe(true)

    const client = localClient(TOKEN, `${origin}${MOUNT}`)
    const customer = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
    } as never)
    const creditor = (await client.creditors.list({})).creditors[0]?.id ?? ""
    const mandate = await client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account.id, creditor } } as never)
    const payment = await client.payments.create({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } } as never)
    const paymentId = payment.id ?? ""
    // The payment's creation is delivered without any advance: the host's process pumps nothing.
    await expect.poll(() => delivered.some((event) => event.resource_type === "payments" && event.links["payment"] === paymentId), { timeout: 60_000, interval: 200 }).toBe(true)

    const advanced = await api(`${origin}${MOUNT}`, TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by: "P14D" } })
    expect(advanced.status, JSON.stringify(await json(advanced.clone()))).toBe(200)
    expect((await client.payments.find(paymentId)).status).toBe("paid_out")
    await expect.poll(() => delivered.some((event) => event.action === "paid_out" && event.links["payment"] === paymentId), { timeout: 60_000, interval: 200 }).toBe(true)

    // The host's scrape holds the child's series (its deliveries, its due items), marked as the worker's, each family once.
    const scraped = await (await fetch(paykit.metricsUrl ?? "")).text()
    expect(scraped).toMatch(/^paykit_webhook_deliveries_total\{[^}]*paykit_process="worker"[^}]*\} [1-9]/m)
    expect(scraped).toMatch(/^paykit_due_work_items_total\{[^}]*paykit_process="worker"[^}]*\} [1-9]/m)
    expect(scraped).toMatch(/^paykit_http_requests_total\{(?![^}]*paykit_process)[^}]*\} [1-9]/m)
    for (const family of ["paykit_webhook_deliveries_total", "paykit_due_work_items_total", "process_cpu_seconds_total"]) {
      expect(scraped.split("\n").filter((line) => line.startsWith(`# TYPE ${family} `))).toHaveLength(1)
    }

    await paykit.close()
    expect(isRunning(pid)).toBe(false)
  })

  it("a worker process killed under the host is said in the host's log", { timeout: 120_000 }, async () => {
    const own: Array<ServerLogLine> = []
    const other = await createPaykitApp({
      databaseUrl: databaseUrl ?? "", schema, sandboxToken: TOKEN, webhookSecretKey: key, dueWork: "worker-process",
      log: (line) => void own.push(line), requestLog: () => {}
    })
    try {
      process.kill(other.workerPid ?? 0, "SIGKILL")
      await expect.poll(() => own.some((line) => line.level === "error" && line.msg.startsWith("the worker process ended")), { timeout: 10_000 }).toBe(true)
    } finally {
      await other.close()
    }
  })
})
