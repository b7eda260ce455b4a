import { createHmac } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer, Schedule } from "effect"
import {
  decodeCommand, DueWorker, DueWorkStore, ensureDailyRuns, InMemoryStorage, type EngineStorage, REQUEST_BODIES, RETENTION_KIND, SANDBOX_SENDER_POLICY,
  testEngine, WEBHOOK_DELIVERY_KIND, WebhookEndpoints
} from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { ORG, program, setUpPayment } from "../../../examples/engine-program.ts"
import { productionLayer, productionProgram } from "../../../examples/engine-production.ts"
import { subscriptionProgram } from "../../../examples/engine-subscription.ts"
import { ProductionSqlStorage } from "../src/production-storage.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The embedding guide's programs (docs/embedding-the-engine.md), as a new embedder runs them: the
 * test program on memory and on every database, and the production one on the real clock.
 */

const START = Date.UTC(2026, 10, 23, 9, 0, 0)
const TIMEOUT_MS = 120_000

const storages: ReadonlyArray<{ readonly name: string; readonly storage: () => Layer.Layer<EngineStorage, unknown> }> = [
  { name: "memory", storage: () => InMemoryStorage },
  ...DATABASES.map((db) => ({ name: db.name, storage: () => SqlStorage.pipe(Layer.provide(db.isolated())) }))
]

describe("the embedding guide's program", () => {
  for (const { name, storage } of storages) {
    it(`creates a mandate and a payment and pays it out, on ${name}`, async () => {
      const r = await Effect.runPromise(Effect.scoped(Effect.provide(program, testEngine({ seed: 1, start: START, storage: storage() }))))
      expect(r.payment.status).toBe("paid_out")
      const moves = r.events.filter((e) => e.resource_type === "payments").map((e) => e.action).toReversed()
      expect(moves).toEqual(["created", "submitted", "confirmed", "paid_out"])
      expect(r.events.some((e) => e.resource_type === "payouts" && e.action === "paid")).toBe(true)
    }, TIMEOUT_MS)
  }

  for (const { name, storage } of storages) {
    it(`makes a subscription's payments, pauses it for a cycle and pays them out, on ${name}`, async () => {
      const r = await Effect.runPromise(Effect.scoped(Effect.provide(subscriptionProgram, testEngine({ seed: 1, start: START, storage: storage() }))))
      expect(r.created.upcoming_payments.map((p) => p.charge_date)).toEqual(["2026-11-30", "2026-12-31", "2027-01-29", "2027-02-26", "2027-03-31", "2027-04-30"])
      expect(r.paused).toMatchObject({ status: "paused", end_date: "2027-05-28" })
      expect(r.paused.upcoming_payments[0]?.charge_date).toBe("2027-01-29")
      expect(r.payments.map((p) => [p.charge_date, p.status]).toReversed()).toEqual([
        ["2026-11-30", "paid_out"], ["2027-01-29", "paid_out"], ["2027-02-26", "paid_out"]
      ])
      expect(r.subscription.status).toBe("active")
    }, TIMEOUT_MS)
  }

  it("runs due work on the real clock in production: an import is validated by the worker seconds after its creation", async () => {
    const [db] = DATABASES
    if (db === undefined) throw new Error("no database")
    const r = await Effect.runPromise(Effect.scoped(Effect.provide(productionProgram, productionLayer(ProductionSqlStorage.pipe(Layer.provide(db.isolated()))))))
    expect(r.created.status).toBe("validating")
    expect(r.validated.status).toBe("valid")
  }, TIMEOUT_MS)

  it("delivers signed webhooks and schedules retention in production: a receiver on 127.0.0.1 gets the payment's events", async () => {
    const [db] = DATABASES
    if (db === undefined) throw new Error("no database")
    const received: Array<{ readonly body: string; readonly signature: unknown }> = []
    const receiver = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      request.on("end", () => {
        received.push({ body, signature: request.headers["webhook-signature"] })
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    const actions = () => received.flatMap((r) => (JSON.parse(r.body) as { events: ReadonlyArray<{ resource_type: string; action: string }> }).events)
    try {
      const r = await Effect.runPromise(Effect.scoped(Effect.provide(Effect.gen(function*() {
        const endpoint = yield* (yield* WebhookEndpoints).create(ORG, yield* decodeCommand(REQUEST_BODIES.webhook_endpoints.create, "webhook_endpoints")({ url }))
        yield* setUpPayment
        // What runDueWork's pass does for each organisation, at once rather than within its minute.
        yield* ensureDailyRuns
        yield* Effect.sync(() => actions().some((e) => e.resource_type === "payments" && e.action === "created")).pipe(
          Effect.filterOrFail((arrived) => arrived, () => "no payment event yet"),
          Effect.retry({ schedule: Schedule.spaced("250 millis"), times: 120 })
        )
        const retention = yield* (yield* DueWorkStore).pendingOf(ORG, RETENTION_KIND)
        return { secret: endpoint.secret, retention: retention.length, kinds: (yield* DueWorker).kinds }
      }), productionLayer(ProductionSqlStorage.pipe(Layer.provide(db.isolated())), SANDBOX_SENDER_POLICY))))
      for (const request of received) expect(request.signature).toBe(createHmac("sha256", r.secret).update(request.body).digest("hex"))
      expect(actions()).toContainEqual(expect.objectContaining({ resource_type: "mandates", action: "created" }))
      expect(r.kinds).toContain(WEBHOOK_DELIVERY_KIND)
      expect(r.kinds).toContain(RETENTION_KIND)
      expect(r.retention).toBe(1)
    } finally {
      receiver.close()
    }
  }, TIMEOUT_MS)
})
