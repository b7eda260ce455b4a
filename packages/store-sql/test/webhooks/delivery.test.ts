import { Clock, Effect } from "effect"
import { MILLIS_PER_DAY, newId, timestampFromMillis, OrganisationId } from "@paykit/core"
import { TestClock } from "effect/testing"
import {
  type Event, EventLog, Events, WEBHOOK_DELIVERY_KIND, WEBHOOK_ENDPOINT_DISABLE_AFTER_MS, WEBHOOK_RETRY_DELAYS_MS,
  WebhookDeliveries, WebhookDeliveryRepository, WebhookEndpoints, Webhooks
} from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { afterEach, describe, expect, it } from "vitest"
import { DATABASES } from "../support/databases.ts"
import { nextDue, recordingSchedule, runDue, TEST_TIMEOUT_MS, webhookEngine } from "./harness.ts"
import { type Receiver, startReceiver } from "./receiver.ts"

const ORG = OrganisationId("OR0000000000WA")
const OTHER = OrganisationId("OR0000000000WB")
const SECRET = "whsec-test-secret-0001"
const START = Date.UTC(2026, 10, 23, 9)

/** A delivery's history (`webhookDeliveryMachine`'s entries): `from -event-> to`. */
const movesOf = (id: string) =>
  Effect.map(EventLog.use((log) => log.history(ORG, "webhook_deliveries", id)), (rows) => rows.map((r) => `${r.from ?? "*"} -${r.event}-> ${r.to}`))

/** A mandate's `created` event as the engine records one. */
const mandateEvent = Effect.gen(function*() {
  const at = timestampFromMillis(yield* Clock.currentTimeMillis)
  return {
    id: yield* newId("event"), created_at: at, resource_type: "mandates", action: "created",
    links: { mandate: yield* newId("mandate") },
    details: { origin: "api", cause: "mandate_created", description: "Mandate created via the API." },
    metadata: {}, resource_metadata: {}
  } satisfies Event
})

const receivers: Array<Receiver> = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})
const receiver = async () => {
  const made = await startReceiver(SECRET)
  receivers.push(made)
  return made
}

/** Every event id the official client's parse verified, over what the receiver got. */
const verifiedIds = (r: Receiver) => r.received.flatMap((x) => Array.isArray(x.parsed) ? x.parsed : [])

describe.each(DATABASES)("webhook delivery on $name", (database) => {
  it("receiver down, slow, answering 500, 498 and a redirect, then healthy: every event arrives, each attempt is recorded", { timeout: 60_000 }, async () => {
    const hooks = await receiver()
    const schedule = recordingSchedule()
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const endpoint = yield* (yield* WebhookEndpoints).create(ORG, { url: hooks.url, secret: SECRET })
      expect(endpoint.secret).toBe(SECRET)
      yield* setUpPayer(ORG, {})
      const events = (yield* (yield* Events).list(ORG, { limit: 500 })).items
      expect(events.length).toBeGreaterThan(0)

      yield* Effect.promise(() => hooks.down())
      expect(yield* runDue(schedule.rows)).toBe(1)
      yield* Effect.promise(() => hooks.up())
      hooks.answer(
        { _tag: "status", status: 500 },
        { _tag: "status", status: 498 },
        { _tag: "slow", delayMs: TEST_TIMEOUT_MS * 3 },
        { _tag: "status", status: 302, headers: { location: `${hooks.url}/elsewhere` } }
      )
      // Each retry falls due after its backoff on the organisation's clock, not before.
      for (let failure = 1; failure <= 5; failure++) {
        const due = nextDue(schedule.rows)
        expect(due).toBe((yield* Clock.currentTimeMillis) + (WEBHOOK_RETRY_DELAYS_MS[failure - 1] ?? Number.NaN))
        expect(yield* runDue(schedule.rows)).toBe(0)
        yield* TestClock.setTime(due ?? 0)
        expect(yield* runDue(schedule.rows)).toBe(1)
      }
      expect(schedule.rows.size).toBe(0)

      const records = (yield* (yield* Webhooks).list(ORG, { limit: 50 })).items
      expect(records.map((r) => [r.response_code, r.successful]).reverse()).toEqual([
        [null, false], [500, false], [498, false], [null, false], [302, false], [200, true]
      ])
      // The first attempt is recorded under the delivery's id, the body's meta.webhook_id; the body never changes.
      const first = records[records.length - 1]
      expect(first?.id).toBe(JSON.parse(first?.request_body ?? "{}").meta.webhook_id)
      expect(new Set(records.map((r) => r.request_body)).size).toBe(1)
      expect((yield* (yield* Webhooks).list(ORG, { successful: true })).items).toHaveLength(1)
      expect(records.every((r) => r.request_headers["Webhook-Signature"] !== undefined && r.links.webhook_endpoint === endpoint.id)).toBe(true)

      // The redirect was not followed; the slow answer was waited for TEST_TIMEOUT_MS only.
      expect(hooks.received.map((r) => r.answered)).toEqual([500, 498, "slow", 302, 200])
      expect(new Set(verifiedIds(hooks))).toEqual(new Set(events.map((e) => e.id)))
      expect(hooks.received.every((r) => r.headers["webhook-id"] === first?.id && r.headers["content-type"] === "application/json")).toBe(true)
    }), webhookEngine(database.isolated(), schedule.layer)))
  })

  it("each organisation's events go to its own enabled endpoints only, at most 250 a request, none lost or doubled by two pumps", { timeout: 60_000 }, async () => {
    const mine = await receiver()
    const theirs = await receiver()
    const schedule = recordingSchedule()
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const endpoints = yield* WebhookEndpoints
      yield* endpoints.create(ORG, { url: mine.url, secret: SECRET })
      const disabled = yield* endpoints.create(ORG, { url: `${theirs.url}/disabled`, secret: SECRET })
      yield* endpoints.disable(ORG, disabled.id)
      yield* endpoints.create(OTHER, { url: theirs.url, secret: SECRET })
      // Enough events for several requests: a payer's, then many more appended as the engine appends them.
      yield* setUpPayer(ORG, {})
      yield* setUpPayer(OTHER, {})
      yield* (yield* EventLog).append(ORG, yield* Effect.forEach(Array.from({ length: 600 }), () => mandateEvent))
      const log = yield* EventLog
      const ours = (yield* log.scan(ORG, {})).map((e) => e.id)
      const others = (yield* log.scan(OTHER, {})).map((e) => e.id)
      expect(ours.length).toBeGreaterThan(250)

      const deliveries = yield* WebhookDeliveryRepository
      yield* Effect.all([runDue(new Map()), runDue(new Map())], { concurrency: 2 })
      const made = [...(yield* deliveries.scan(ORG, {})), ...(yield* deliveries.scan(OTHER, {}))]
      const bodies = made.map((d) => JSON.parse(d.resource.request_body) as { events: Array<{ id: string }> })
      expect(bodies.every((b) => b.events.length <= 250)).toBe(true)
      const delivered = bodies.flatMap((b) => b.events.map((e) => e.id))
      expect(delivered.length).toBe(new Set(delivered).size)
      expect(new Set(delivered)).toEqual(new Set([...ours, ...others]))
      expect([...schedule.rows.values()].every((r) => r.kind === WEBHOOK_DELIVERY_KIND)).toBe(true)

      yield* runDue(schedule.rows)
      expect(new Set(verifiedIds(mine))).toEqual(new Set(ours))
      expect(new Set(verifiedIds(theirs))).toEqual(new Set(others))
      expect(theirs.received.every((r) => !r.body.includes(ORG))).toBe(true)
    }), webhookEngine(database.isolated(), schedule.layer)))
  })

  it("a delivery is made no earlier than its newest event: a sandbox organisation's clock runs ahead of the pump's", { timeout: 60_000 }, async () => {
    const hooks = await receiver()
    const schedule = recordingSchedule()
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      yield* (yield* WebhookEndpoints).create(ORG, { url: hooks.url, secret: SECRET })
      // Stamped on an organisation clock ten days ahead of the clock the pump runs under.
      const ahead = timestampFromMillis(START + 10 * MILLIS_PER_DAY)
      yield* (yield* EventLog).append(ORG, [{ ...(yield* mandateEvent), created_at: ahead }])
      yield* runDue(new Map())
      const made = yield* (yield* WebhookDeliveryRepository).scan(ORG, {})
      expect(made.map((d) => d.resource.created_at)).toEqual([ahead])
    }), webhookEngine(database.isolated(), schedule.layer)))
  })

  it("an endpoint failing for WEBHOOK_ENDPOINT_DISABLE_AFTER_MS is disabled and says why; its delivery is given up after the backoff schedule", { timeout: 60_000 }, async () => {
    const hooks = await receiver()
    await hooks.down()
    const schedule = recordingSchedule()
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const endpoints = yield* WebhookEndpoints
      const endpoint = yield* endpoints.create(ORG, { url: hooks.url, secret: SECRET })
      yield* setUpPayer(ORG, {})
      let attempts = yield* runDue(schedule.rows)
      const failingSince = (yield* endpoints.get(ORG, endpoint.id)).failing_since
      expect(failingSince).not.toBeNull()
      for (let due = nextDue(schedule.rows); due !== undefined; due = nextDue(schedule.rows)) {
        yield* TestClock.setTime(due)
        attempts += yield* runDue(schedule.rows)
      }
      // One first attempt, then a retry per delay; the last falls after the endpoint has failed for the limit.
      expect(attempts).toBe(WEBHOOK_RETRY_DELAYS_MS.length + 1)
      const after = yield* endpoints.get(ORG, endpoint.id)
      expect(after).toMatchObject({ enabled: false, disabled_reason: "failing", failing_since: failingSince })
      expect((yield* Clock.currentTimeMillis) - Date.parse(failingSince ?? "")).toBeGreaterThanOrEqual(WEBHOOK_ENDPOINT_DISABLE_AFTER_MS)
      const deliveries = (yield* (yield* WebhookDeliveryRepository).scan(ORG, {})).map((d) => d.resource)
      expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([["given_up", attempts]])
      // Every failed attempt moved it by its machine: pending while a retry was left, then given up.
      expect(yield* movesOf(deliveries[0]?.id ?? "")).toEqual([
        "* -create-> pending",
        ...Array.from({ length: attempts - 1 }, () => "pending -fail-> pending"),
        "pending -fail-> given_up"
      ])
      expect((yield* (yield* Webhooks).list(ORG, { successful: false, limit: 50 })).items).toHaveLength(attempts)

      // Enabled again: the failing run is forgotten, and new events are delivered.
      yield* Effect.promise(() => hooks.up())
      expect(yield* endpoints.update(ORG, endpoint.id, { enabled: true })).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null })
      yield* setUpPayer(ORG, {})
      expect(yield* runDue(schedule.rows)).toBe(1)
      expect(hooks.received.map((r) => r.answered)).toEqual([200])
    }), webhookEngine(database.isolated(), schedule.layer)))
  })

  it("a delivery whose endpoint was disabled meanwhile is given up without an attempt", { timeout: 60_000 }, async () => {
    const hooks = await receiver()
    const schedule = recordingSchedule()
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const endpoints = yield* WebhookEndpoints
      const endpoint = yield* endpoints.create(ORG, { url: hooks.url, secret: SECRET })
      yield* setUpPayer(ORG, {})
      yield* (yield* WebhookDeliveries).pump(ORG)
      expect(schedule.rows.size).toBe(1)
      yield* endpoints.disable(ORG, endpoint.id)
      expect(yield* runDue(schedule.rows)).toBe(1)
      expect(schedule.rows.size).toBe(0)
      expect(hooks.received).toHaveLength(0)
      const [given] = (yield* (yield* WebhookDeliveryRepository).scan(ORG, {})).map((d) => d.resource)
      expect(given?.status).toEqual("given_up")
      expect(yield* movesOf(given?.id ?? "")).toEqual(["* -create-> pending", "pending -give_up-> given_up"])
    }), webhookEngine(database.isolated(), schedule.layer)))
  })

  it("two runs of one delivery at once (a worker and an advance of one process) both send; both attempts are recorded and both answer Done", { timeout: 60_000 }, async () => {
    const hooks = await receiver()
    const schedule = recordingSchedule()
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      yield* (yield* WebhookEndpoints).create(ORG, { url: hooks.url, secret: SECRET })
      yield* setUpPayer(ORG, {})
      const deliveries = yield* WebhookDeliveries
      yield* deliveries.pump(ORG)
      const [row] = [...schedule.rows.values()]
      if (row === undefined) return expect.unreachable("a delivery's row")
      const outcomes = yield* Effect.all([deliveries.deliver({ ...row, attempt: 0 }), deliveries.deliver({ ...row, attempt: 0 })], { concurrency: 2 })
      expect(outcomes).toEqual([{ _tag: "Done" }, { _tag: "Done" }])
      expect(hooks.received).toHaveLength(2)
      const records = (yield* (yield* Webhooks).list(ORG, {})).items
      expect(records).toHaveLength(2)
      expect(records.map((r) => r.id)).toContain(row.key)
      const stored = (yield* (yield* WebhookDeliveryRepository).get(ORG, row.key)).resource
      expect([stored.status, stored.attempts]).toEqual(["delivered", 1])
      // The run that saved second found it delivered: one move only.
      expect(yield* movesOf(row.key)).toEqual(["* -create-> pending", "pending -succeed-> delivered"])
    }), webhookEngine(database.isolated(), schedule.layer)))
  })
})

