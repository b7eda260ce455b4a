import { Effect, Exit } from "effect"
import { ID_PREFIXES, IDEMPOTENCY_KEY_LIFETIME_MS, lowestIdAt, MILLIS_PER_DAY, timestampFromMillis } from "@paykit/core"
import type { WebhookDeliveryStatus } from "@paykit/machines"
import type { Event } from "../kernel/domain/events.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { RepositoryBackend, Transactor } from "../kernel/ports/repository.ts"
import { type OutboxEvent, WebhookOutbox } from "../webhooks/outbox.ts"
import { type Webhook, type WebhookDelivery, webhookDeliveries, webhooks } from "../webhooks/domain/webhooks.ts"
import { RetentionStore } from "../retention/retention.ts"
import { sampleCustomer } from "./repository-contract.ts"
import { customers } from "../customers/domain/customers.ts"
import { check, CONTRACT_ORG, CONTRACT_OTHER_ORG, type ContractCase, ContractViolation, SAMPLE_BASE_MS, sameList, sampleEvent } from "./contract-support.ts"

/**
 * What production storage holds besides the engine's (`ProductionStorage`): the webhook outbox,
 * from which every committed event is taken exactly once, and retention's pruning. The in-memory
 * storage has neither (it serves tests), so these cases run on a production adapter only.
 */

type OutboxStorage = WebhookOutbox | EventLog | Transactor | RepositoryBackend
type RetentionStorage = OutboxStorage | RetentionStore

export type OutboxContractCase = ContractCase<OutboxStorage>
export type RetentionContractCase = ContractCase<RetentionStorage>

const A = CONTRACT_ORG
const B = CONTRACT_OTHER_ORG

const event = (n: number, atMillis?: number): Event => sampleEvent(n, "customers", "created", { customer: sampleCustomer(n).id }, atMillis)

/** Takes until nothing waits (of `organisation`, or of any), a batch at most `limit` long; the batches taken. */
const takeAll = (organisation: string | undefined, limit: number) =>
  Effect.gen(function*() {
    const outbox = yield* WebhookOutbox
    const batches: Array<ReadonlyArray<OutboxEvent>> = []
    while ((yield* outbox.take(organisation, limit, (batch) => Effect.sync(() => batches.push(batch)))) > 0) { /* until empty */ }
    return batches
  })

const ids = (batch: ReadonlyArray<OutboxEvent>) => batch.map((entry) => entry.event.id)

const outboxCases: ReadonlyArray<OutboxContractCase> = [
  {
    name: "outbox: an event committed is taken once, one rolled back never; nothing waiting is 0",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      yield* tx.transaction(log.append(A, [event(1), event(2)]))
      const failed = yield* Effect.exit(tx.transaction(Effect.andThen(log.append(A, [event(3)]), Effect.fail(new ContractViolation({ message: "abort" })))))
      yield* check(Exit.isFailure(failed), "the unit failed")
      const batches = yield* takeAll(A, 10)
      yield* sameList(batches.flatMap(ids), [event(1).id, event(2).id], "the committed events, once")
      yield* check(batches.flat().every((entry) => entry.organisation === A && entry.event.action === "created"), "each with its organisation and event")
      yield* check((yield* (yield* WebhookOutbox).take(undefined, 10, () => Effect.void)) === 0, "nothing waits")
    })
  },
  {
    name: "outbox: a batch is one organisation's events, oldest first, at most `limit`; without one named, the organisation whose event waited longest",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      yield* tx.transaction(log.append(B, [event(1)]))
      yield* tx.transaction(log.append(A, [event(2), event(3)]))
      yield* tx.transaction(log.append(A, [event(4)]))
      const outbox = yield* WebhookOutbox
      const seen: Array<ReadonlyArray<OutboxEvent>> = []
      const keep = (batch: ReadonlyArray<OutboxEvent>) => Effect.sync(() => seen.push(batch))
      yield* outbox.take(undefined, 10, keep)
      yield* outbox.take(A, 2, keep)
      yield* outbox.take(undefined, 10, keep)
      yield* sameList(seen.map((batch) => `${batch[0]?.organisation}:${ids(batch).join("+")}`),
        [`${B}:${event(1).id}`, `${A}:${event(2).id}+${event(3).id}`, `${A}:${event(4).id}`], "the batches")
    })
  },
  {
    name: "outbox: a handler that fails leaves its batch waiting and fails with its own error; what it wrote is rolled back with it",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      const repository = (yield* RepositoryBackend).repository(customers)
      yield* tx.transaction(log.append(A, [event(1), event(2)]))
      const outbox = yield* WebhookOutbox
      const failed = yield* Effect.flip(outbox.take(A, 10, () =>
        Effect.andThen(repository.insert(A, sampleCustomer(7)), Effect.fail(new ContractViolation({ message: "handler refused" })))))
      yield* check(failed._tag === "ContractViolation" && failed.message === "handler refused", `the handler's error: ${String(failed)}`)
      yield* check(Exit.isFailure(yield* Effect.exit(repository.get(A, sampleCustomer(7).id))), "the failed handler's write is rolled back")
      yield* outbox.take(A, 10, () => Effect.asVoid(repository.insert(A, sampleCustomer(8))))
      yield* check(Exit.isSuccess(yield* Effect.exit(repository.get(A, sampleCustomer(8).id))), "a handler's write commits with the taking")
      yield* sameList((yield* takeAll(A, 10)).flatMap(ids), [], "taken once the handler succeeded")
    })
  },
  {
    name: "outbox: takers at once never take one event twice",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      const all = Array.from({ length: 30 }, (_, i) => event(i + 1))
      for (const [i, e] of all.entries()) yield* tx.transaction(log.append(i % 3 === 0 ? B : A, [e]))
      const taken = (yield* Effect.forEach([1, 2, 3], () => takeAll(undefined, 3), { concurrency: "unbounded" })).flat().flatMap(ids)
      yield* check(new Set(taken).size === taken.length, `an event taken twice: ${taken.join(", ")}`)
      yield* sameList([...taken].sort(), all.map((e) => e.id).sort(), "every event taken")
    })
  }
]

const NOW = SAMPLE_BASE_MS + 400 * MILLIS_PER_DAY
const daysAgo = (days: number) => NOW - days * MILLIS_PER_DAY
const CUTOFFS = { eventsBefore: daysAgo(90), idempotencyKeysBefore: NOW - IDEMPOTENCY_KEY_LIFETIME_MS, mandatePdfsBefore: NOW - 10 * 60_000 }

const delivery = (n: number, status: WebhookDeliveryStatus, atMillis: number): WebhookDelivery => ({
  id: lowestIdAt(ID_PREFIXES.webhook, atMillis).slice(0, -2) + String(n).padStart(2, "0"),
  created_at: timestampFromMillis(atMillis),
  webhook_endpoint: "WE000000000001",
  request_body: "{}",
  status,
  attempts: 1
})

const attempt = (n: number, of: WebhookDelivery, atMillis: number): Webhook => ({
  id: lowestIdAt(ID_PREFIXES.webhook, atMillis).slice(0, -2) + String(50 + n).padStart(2, "0"),
  created_at: timestampFromMillis(atMillis),
  url: "https://example.com/hooks",
  request_headers: {},
  request_body: "{}",
  response_code: 500,
  response_headers: null,
  response_headers_content_truncated: false,
  response_headers_count_truncated: false,
  response_body: null,
  response_body_truncated: false,
  is_test: false,
  successful: false,
  links: { webhook_endpoint: of.webhook_endpoint, delivery: of.id }
})

/**
 * An organisation's dated rows: events taken from the outbox 100 and 89 days ago and one still
 * waiting from 95 days ago; deliveries settled and pending from 92 days ago and one from 10 days
 * ago, with attempts. Everything the other organisation has is the same, to be left alone.
 */
const seedRetention = (organisation: string) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    const tx = yield* Transactor
    const backend = yield* RepositoryBackend
    const old = event(1, daysAgo(100))
    const newer = event(2, daysAgo(89))
    const waiting = event(3, daysAgo(95))
    yield* tx.transaction(log.append(organisation, [old, newer]))
    yield* takeAll(organisation, 100)
    yield* tx.transaction(log.append(organisation, [waiting]))
    const settled = delivery(1, "delivered", daysAgo(92))
    const givenUp = delivery(2, "given_up", daysAgo(93))
    const pending = delivery(3, "pending", daysAgo(92))
    const recent = delivery(4, "delivered", daysAgo(10))
    for (const d of [settled, givenUp, pending, recent]) yield* backend.repository(webhookDeliveries).insert(organisation, d)
    const attempts = [attempt(1, settled, daysAgo(92)), attempt(2, pending, daysAgo(93)), attempt(3, recent, daysAgo(10))]
    for (const a of attempts) yield* backend.repository(webhooks).insert(organisation, a)
    return { newer, waiting, settled, givenUp, pending, recent, attempts }
  })

const remaining = (organisation: string) =>
  Effect.gen(function*() {
    const backend = yield* RepositoryBackend
    const events = yield* (yield* EventLog).scan(organisation, {})
    const deliveries = yield* backend.repository(webhookDeliveries).scan(organisation, {})
    const attempts = yield* backend.repository(webhooks).scan(organisation, {})
    return {
      events: events.map((e) => e.id).sort(),
      deliveries: deliveries.map((d) => d.resource.id).sort(),
      attempts: attempts.map((a) => a.resource.id).sort()
    }
  })

const retentionCases: ReadonlyArray<RetentionContractCase> = [
  {
    name: "retention: events and settled webhook records past their cutoff go; an event still in the outbox, a pending delivery and its attempts stay; another organisation's stay",
    run: Effect.gen(function*() {
      const seeded = yield* seedRetention(A)
      yield* seedRetention(B)
      const before = yield* remaining(B)
      const store = yield* RetentionStore
      const removed = yield* (yield* Transactor).transaction(store.prune(A, CUTOFFS, 1_000))
      yield* check(removed === 2, `the most removed from one table: 2 deliveries, got ${removed}`)
      const left = yield* remaining(A)
      yield* sameList(left.events, [seeded.newer.id, seeded.waiting.id].sort(), "the newer event and the one waiting")
      yield* sameList(left.deliveries, [seeded.pending.id, seeded.recent.id].sort(), "the pending delivery and the recent one")
      yield* sameList(left.attempts, [seeded.attempts[1]?.id ?? "", seeded.attempts[2]?.id ?? ""].sort(), "the pending delivery's attempt and the recent one")
      const other = yield* remaining(B)
      yield* check(JSON.stringify(other) === JSON.stringify(before), "the other organisation keeps everything")
      yield* check((yield* store.prune(A, CUTOFFS, 1_000)) === 0, "a second run finds nothing")
    })
  },
  {
    name: "retention: a run removes at most `limit` rows of each table, and says so",
    run: Effect.gen(function*() {
      yield* seedRetention(A)
      const store = yield* RetentionStore
      const first = yield* (yield* Transactor).transaction(store.prune(A, CUTOFFS, 1))
      yield* check(first === 1, `a full batch answers its limit: ${first}`)
      const left = yield* remaining(A)
      yield* check(left.deliveries.length === 3 && left.events.length === 2, `one delivery and one event removed: ${JSON.stringify(left)}`)
      const second = yield* (yield* Transactor).transaction(store.prune(A, CUTOFFS, 1))
      yield* check(second === 1 && (yield* remaining(A)).deliveries.length === 2, "the next batch the rest")
    })
  }
]

/** The webhook outbox's obligations (`WebhookOutbox`), each on a fresh store. */
export const OutboxContract = { cases: outboxCases }

/** Retention's obligations (`RetentionStore`), each on a fresh store. */
export const RetentionContract = { cases: retentionCases }
