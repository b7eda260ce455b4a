import { Clock, Context, Effect, Exit, Layer } from "effect"
import { type IdGenerator, InvalidState, newId, timestampFromMillis, type StorageError, type StorageFailure } from "@paykit/core"
import { type Cause, webhookDeliveryMachine, type WebhookDeliveryEvent, type WebhookDeliveryFacts } from "@paykit/machines"
import type { Event } from "../kernel/domain/events.ts"
import { eq } from "../kernel/ports/list-query.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { type DueItem, type DueOutcome, dueDone, dueRetryAt, DueWorkSchedule } from "../due-work/port.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { applyCreation, applyTransition, captureEngineContext, type EngineContext, insertNew, save } from "../kernel/support.ts"
import { DISABLED_FOR_FAILING, type StoredWebhookEndpoint } from "./domain/webhook-endpoints.ts"
import type { WebhookDelivery } from "./domain/webhooks.ts"
import { attemptDelivery, type AttemptDeps } from "./attempt.ts"
import { ENDPOINT_SAVE_TRIES, retryDelayAfter, WEBHOOK_ENDPOINT_DISABLE_AFTER_MS, WEBHOOK_MAX_EVENTS } from "./delivery-policy.ts"
import { type OutboxEvent, WebhookOutbox } from "./outbox.ts"
import { WebhookDeliveryRepository, WebhookEndpointRepository, WebhookRepository } from "./repositories.ts"
import { WebhookSecretKey } from "./secret-box.ts"
import { WebhookSender } from "./sender.ts"
import { WebhookTargetTrust } from "./target-trust.ts"

/** The kind of the due rows that deliver webhooks; each row's key is its delivery's id. */
export const WEBHOOK_DELIVERY_KIND = "webhook_delivery"

/** The request body of a delivery, as the real API sends it. */
export const deliveryBody = (webhookId: string, events: ReadonlyArray<Event>): string =>
  JSON.stringify({ events, meta: { webhook_id: webhookId } })

/** The events as a partner app receives them: the connected organisation in `links.organisation` (spec, Events). */
export const withOrganisationLink = (events: ReadonlyArray<Event>, organisation: string): ReadonlyArray<Event> =>
  events.map((event) => ({ ...event, links: { ...event.links, organisation } }))

interface Deps extends AttemptDeps {
  readonly records: WebhookRepository["Service"]
  readonly deliveries: WebhookDeliveryRepository["Service"]
  readonly endpoints: WebhookEndpointRepository["Service"]
  readonly transactor: Transactor["Service"]
  readonly schedule: DueWorkSchedule["Service"]
  readonly outbox: WebhookOutbox["Service"]
}

/**
 * The endpoint after an attempt: a success ends its failing run; a failure starts one, or, once the
 * run has lasted `WEBHOOK_ENDPOINT_DISABLE_AFTER_MS`, disables it. Answers whether it is still enabled.
 */
const noteOutcome = (deps: Deps, organisation: string, id: string, successful: boolean, atMillis: number) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.endpoints.get(organisation, id))
    const endpoint = current.resource
    const next = nextEndpoint(endpoint, successful, atMillis)
    if (next === endpoint) return endpoint.enabled
    yield* save(deps.endpoints, organisation, current, next)
    if (endpoint.enabled && !next.enabled) {
      yield* Effect.logWarning("webhook endpoint disabled: its deliveries have failed for too long").pipe(
        Effect.annotateLogs({ organisation, webhook_endpoint: id, failing_since: endpoint.failing_since })
      )
    }
    return next.enabled
  }).pipe(Effect.retry({ times: ENDPOINT_SAVE_TRIES, while: (e) => e instanceof InvalidState }), Effect.orDie)

/** The rule of an endpoint's failing run, pure: the endpoint as an attempt at `atMillis` leaves it (the same object when unchanged). */
export const nextEndpoint = (endpoint: StoredWebhookEndpoint, successful: boolean, atMillis: number): StoredWebhookEndpoint => {
  if (successful) return endpoint.failing_since === null ? endpoint : { ...endpoint, failing_since: null }
  if (endpoint.failing_since === null) return { ...endpoint, failing_since: timestampFromMillis(atMillis) }
  if (!endpoint.enabled || atMillis - Date.parse(endpoint.failing_since) < WEBHOOK_ENDPOINT_DISABLE_AFTER_MS) return endpoint
  return { ...endpoint, enabled: false, disabled_reason: DISABLED_FOR_FAILING }
}

/** Another run of the same delivery settled it first (the worker and an advance of one process may both hold its row). */
class SettledElsewhere {
  readonly _tag = "SettledElsewhere"
}

/** Why a delivery moves: the platform's own delivery work. */
const DELIVERY_CAUSE: Cause = { origin: "gocardless", cause: "webhook_delivery" }

/**
 * Moves the delivery by its machine (an attempt's outcome, or giving up) and saves it, if nobody
 * else did since `current` was read: a lost race, or a delivery no longer pending, was settled
 * by the other run.
 */
const settle = (
  deps: Deps,
  organisation: string,
  current: Versioned<WebhookDelivery>,
  event: WebhookDeliveryEvent,
  context: WebhookDeliveryFacts,
  attempts: number
): Effect.Effect<WebhookDelivery, SettledElsewhere | StorageError, EngineContext> =>
  Effect.mapError(
    applyTransition(deps.deliveries, {
      organisation,
      machine: webhookDeliveryMachine,
      current,
      event,
      context,
      cause: DELIVERY_CAUSE,
      patch: (delivery) => ({ ...delivery, attempts }),
      links: { webhook_endpoint: current.resource.webhook_endpoint }
    }),
    () => new SettledElsewhere()
  )

/** What the row should do given the delivery as stored: done unless pending, else due after its backoff. */
const outcomeOf = (delivery: WebhookDelivery, at: number): DueOutcome =>
  delivery.status === "pending" ? dueRetryAt(at + (retryDelayAfter(delivery.attempts) ?? 0)) : dueDone

/**
 * The `webhook_delivery` handler: one attempt of the delivery, recorded, then the delivery
 * delivered (2xx), given up (retries spent or endpoint disabled), or due again after its backoff
 * (`WEBHOOK_RETRY_DELAYS_MS`) on the organisation's clock. Nothing is held open across the request:
 * it is read, sent, then the delivery's next state, the record and the endpoint's failing run are
 * written in one unit of work; a process dying in between leaves the row to be claimed again and
 * nothing written (the receiver may then see the body twice, under one `webhook-id`). Two runs of
 * one delivery at once both send; the one that saves second records its attempt under an id of
 * its own and answers from the state the first left.
 */
const deliver = (deps: Deps, item: DueItem): Effect.Effect<DueOutcome, StorageError, EngineContext> =>
  Effect.gen(function*() {
    const found = yield* Effect.option(deps.deliveries.get(item.organisation, item.key))
    if (found._tag === "None" || found.value.resource.status !== "pending") return dueDone
    const current = found.value
    const delivery = current.resource
    const endpoint = (yield* Effect.orDie(deps.endpoints.get(item.organisation, delivery.webhook_endpoint))).resource
    if (!endpoint.enabled) return yield* giveUp(deps, item, current)
    const record = yield* attemptDelivery(deps, {
      organisation: item.organisation, delivery: delivery.id, body: delivery.request_body, endpoint,
      ...(delivery.attempts === 0 ? { recordId: delivery.id } : {})
    })
    const at = yield* Clock.currentTimeMillis
    return yield* deps.transactor.transaction(Effect.gen(function*() {
      const enabled = yield* noteOutcome(deps, item.organisation, endpoint.id, record.successful, at)
      const attempts = delivery.attempts + 1
      const delay = retryDelayAfter(attempts)
      const next = yield* settle(deps, item.organisation, current, record.successful ? "succeed" : "fail", {
        endpoint_enabled: enabled,
        retry_left: delay !== undefined
      }, attempts)
      yield* insertNew(deps.records, item.organisation, record)
      return next.status === "pending" && delay !== undefined ? dueRetryAt(at + delay) : dueDone
    })).pipe(
      // Settled by the other run: this attempt is recorded all the same, under an id of its own.
      Effect.catchTag("SettledElsewhere", () =>
        Effect.gen(function*() {
          yield* insertNew(deps.records, item.organisation, { ...record, id: yield* newId("webhook") })
          return outcomeOf((yield* Effect.orDie(deps.deliveries.get(item.organisation, item.key))).resource, at)
        }))
    )
  })

/** A delivery to a disabled endpoint: given up without an attempt. */
const giveUp = (deps: Deps, item: DueItem, current: Versioned<WebhookDelivery>) =>
  Effect.gen(function*() {
    const facts = { endpoint_enabled: false, retry_left: false }
    const saved = yield* Effect.exit(settle(deps, item.organisation, current, "give_up", facts, current.resource.attempts))
    if (Exit.isSuccess(saved)) return dueDone
    return outcomeOf((yield* Effect.orDie(deps.deliveries.get(item.organisation, item.key))).resource, yield* Clock.currentTimeMillis)
  })

/**
 * Turns one batch of an organisation's events into deliveries: one per enabled endpoint, each
 * scheduled at once. Runs inside the outbox's transaction, so the events leave the outbox exactly
 * when their deliveries are committed. A delivery runs in the trace of the span that appended its
 * first traced event (a request's), not the pump's: the attempts are what that request led to.
 */
const deliveriesOf = (deps: Deps, batch: ReadonlyArray<OutboxEvent>, nowOf: OrganisationNow): Effect.Effect<void, StorageFailure, EngineContext> =>
  Effect.gen(function*() {
    const organisation = batch[0]?.organisation
    if (organisation === undefined) return
    const events = batch.map((entry) => entry.event)
    const enabled = yield* deps.endpoints.scan(organisation, { enabled: eq("true") })
    // A delivery is made on its organisation's clock, and no earlier than its newest event: another
    // process's advance of the organisation stamps events ahead of the clock stored until it ends.
    const newest = Math.max(...events.map((event) => Date.parse(event.created_at)))
    const at = Math.max(yield* nowOf(organisation), newest)
    const traceparent = batch.find((entry) => typeof entry.traceparent === "string")?.traceparent
    yield* deps.transactor.transaction(Effect.forEach(enabled, (endpoint) =>
      Effect.gen(function*() {
        const id = yield* newId("webhook")
        // "pending" is the machine's initial state: a refusal would be a defect of the table.
        yield* Effect.orDie(applyCreation(deps.deliveries, {
          organisation,
          machine: webhookDeliveryMachine,
          state: "pending",
          resource: {
            id, created_at: timestampFromMillis(at), webhook_endpoint: endpoint.resource.id,
            request_body: deliveryBody(id, endpoint.resource.partner_app === undefined ? events : withOrganisationLink(events, organisation)),
            attempts: 0
          },
          cause: DELIVERY_CAUSE,
          links: { webhook_endpoint: endpoint.resource.id }
        }))
        yield* deps.schedule.schedule({ organisation, kind: WEBHOOK_DELIVERY_KIND, key: id, dueAt: at, ...(typeof traceparent === "string" ? { traceparent } : {}) })
      }), { discard: true }))
  })

/** An organisation's time now, the clock its deliveries are due on (`DuePump.run`'s). */
type OrganisationNow = (organisation: string) => Effect.Effect<number, StorageFailure>
/** Outside the worker (tests, a caller of `pump` alone): the clock the caller runs under. */
const callersClock: OrganisationNow = () => Clock.currentTimeMillis

/** Takes the waiting events of `organisation` (every organisation's when undefined), a batch at a time, until none waits. */
const pump = (deps: Deps, organisation: string | undefined, nowOf: OrganisationNow): Effect.Effect<void, StorageFailure, EngineContext> =>
  Effect.flatMap(
    deps.outbox.take(organisation, WEBHOOK_MAX_EVENTS, (batch) => deliveriesOf(deps, batch, nowOf)),
    (taken) => taken > 0 ? pump(deps, organisation, nowOf) : Effect.void
  )

/** The delivery side of webhooks, for the due-work worker: the `webhook_delivery` handler and the outbox pump. */
export class WebhookDeliveries extends Context.Service<WebhookDeliveries, {
  readonly deliver: (item: DueItem) => Effect.Effect<DueOutcome, StorageError>
  /** `nowOf`: each organisation's time (the worker's); by default the clock the caller runs under. */
  readonly pump: (organisation: string | undefined, nowOf?: OrganisationNow) => Effect.Effect<void, StorageFailure>
}>()("@paykit/engine/WebhookDeliveries") {
  static readonly layer: Layer.Layer<
    WebhookDeliveries,
    never,
    | WebhookDeliveryRepository | WebhookEndpointRepository | WebhookRepository | WebhookSecretKey | WebhookSender
    | WebhookOutbox | DueWorkSchedule | Transactor | IdGenerator | EventLog
  > = Layer.effect(
    WebhookDeliveries,
    Effect.gen(function*() {
      const deps: Deps = {
        deliveries: yield* WebhookDeliveryRepository,
        endpoints: yield* WebhookEndpointRepository,
        records: yield* WebhookRepository,
        box: yield* WebhookSecretKey,
        sender: yield* WebhookSender,
        trust: yield* WebhookTargetTrust,
        outbox: yield* WebhookOutbox,
        schedule: yield* DueWorkSchedule,
        transactor: yield* Transactor
      }
      const provideEngine = yield* captureEngineContext
      return WebhookDeliveries.of({
        deliver: (item) => provideEngine(deliver(deps, item)),
        pump: (organisation, nowOf = callersClock) => provideEngine(pump(deps, organisation, nowOf))
      })
    })
  )
}
