import { Cause, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { IDEMPOTENCY_KEY_LIFETIME_MS, IdGenerator, type StorageFailure } from "@paykit/core"
import { InMemoryStorage } from "./memory/in-memory.ts"
import { SandboxBank } from "./memory/sandbox-bank.ts"
import type { BankGateway } from "./kernel/ports/bank-gateway.ts"
import type { EventLog } from "./kernel/ports/event-log.ts"
import type { NameVerifier } from "./kernel/ports/name-verifier.ts"
import { RepositoryBackend, type Transactor } from "./kernel/ports/repository.ts"
import { RepositoriesFromBackend } from "./repositories.ts"
import { Events } from "./kernel/events.ts"
import { ClockControl } from "./due-work/daily-clock.ts"
import { Simulator } from "./due-work/simulator.ts"
import { DueKinds, type DueWorkDeclarations, type DueWorkSchedule, DueWorkStore } from "./due-work/port.ts"
import { DAILY_RUN_KIND, dailyRunDeclarations, scheduleFirstDailyRun } from "./due-work/daily-run.ts"
import { DUE_POLL_INTERVAL_MS, DuePolling, DueWorker, type DueWorkerOptions } from "./due-work/worker.ts"
import { deadlinesOf, dueWorkOf, portsOf, servicesOf } from "./registry/room.ts"
import { ROOMS } from "./rooms.ts"
import { Paykit } from "./paykit.ts"
import { JobRegistry } from "./due-work/jobs.ts"
import { bankAccountHolderVerificationsRoom } from "./bank-account-holder-verifications/room.ts"
import { customerNotificationsRoom } from "./customer-notifications/room.ts"
import { flowsRoom } from "./flows/room.ts"
import { WebhookSecretKey } from "./webhooks/secret-box.ts"
import { LIVE_SENDER_POLICY, SANDBOX_SENDER_POLICY, type SenderPolicy, WebhookSender } from "./webhooks/sender.ts"
import { WebhookDeliveries } from "./webhooks/delivery-due.ts"
import { webhookDueWork } from "./webhooks/jobs.ts"
import type { WebhookOutbox } from "./webhooks/outbox.ts"
import {
  DEFAULT_EVENT_RETENTION_DAYS,
  RETENTION_KIND,
  retentionDueWork,
  retentionPolicy,
  type RetentionPolicy,
  type RetentionStore,
  scheduleFirstRetentionRun
} from "./retention/retention.ts"

/**
 * The hosted flows' services (`flows/`) and their neighbours' (`bank-account-holder-verifications/`,
 * `customer-notifications/`), as the engine once composed them in one group.
 */
export const FlowServices = servicesOf([flowsRoom, bankAccountHolderVerificationsRoom, customerNotificationsRoom])

/**
 * Every API-facing engine service, from the rooms (`rooms.ts`): each room's services built on the
 * rooms' below it, over the events and the ports the lower rooms declare and the upper ones
 * implement (docs/architecture.md, "Rooms"). It needs storage (`EngineStorage` and the
 * repositories), a `BankGateway`, a `NameVerifier`, an `IdGenerator`, and for webhooks a
 * `WebhookSecretKey` and a `WebhookSender`; never `ClockControl`: only the simulator moves time,
 * and it is not part of this layer. The sandbox's scenario simulators are among them (served on
 * a sandbox server only).
 */
export const ApiServices = servicesOf(ROOMS).pipe(Layer.provideMerge(Layer.merge(Events.layer, portsOf(ROOMS))))

/**
 * The daily run: every room's due work (`rooms.ts`) in one registry, which the kernel's simulator
 * runs in the order the declarations give (docs/engine.md, "The simulator").
 */
export const EngineJobs = JobRegistry.layer(dueWorkOf(ROOMS))

/**
 * The engine's deadlines as due work (kinds only: the daily run is `dailyRunDeclarations`): what a
 * server's `DueWorker` runs besides the daily run. The use cases schedule them through
 * `DueWorkSchedule` when the composition provides one.
 */
export const EngineDeadlines = deadlinesOf(ROOMS)

/** `EngineDeadlines` for the library's simulator, which runs them as a server's worker does. */
export const EngineDueKinds = Layer.effect(DueKinds, Effect.map(EngineDeadlines, (declarations) => DueKinds.of({ declarations })))

/** The services `ApiServices` provides. */
export type ApiService = Layer.Success<typeof ApiServices>

/** The same layer as `ApiServices` under its first name (every engine service but the simulator). */
export const EngineServices = ApiServices

/**
 * What the engine is stored in: resources, units of work, events, and due work (the rows the use
 * cases schedule, which a server's worker and the library's simulator both run).
 */
export type EngineStorage = RepositoryBackend | Transactor | EventLog | DueWorkStore | DueWorkSchedule

/**
 * `ApiServices` with their repositories on the storage adapter given (in memory, or SQL from
 * @paykit/store-sql): what an API server serves. It still needs a `BankGateway`, a `NameVerifier`
 * and an `IdGenerator`; it needs no `ClockControl` and has no simulator. It provides them also as
 * one `Paykit`.
 */
export const engineServicesOn = <E, R>(storage: Layer.Layer<EngineStorage, E, R>) =>
  Layer.mergeAll(EngineJobs, EngineDueKinds, Paykit.layer).pipe(
    Layer.provideMerge(ApiServices),
    Layer.provideMerge(RepositoriesFromBackend),
    Layer.provideMerge(storage)
  )

/** The engine on the storage adapter given: `engineServicesOn(storage)` and the simulator (which needs `ClockControl`). */
export const engineOn = <E, R>(storage: Layer.Layer<EngineStorage, E, R>) =>
  Simulator.layer.pipe(Layer.provideMerge(engineServicesOn(storage)))

/**
 * The whole engine in memory with the sandbox bank: what tests and the simulator run on. The
 * clock is Effect's: provide `TestClock.layer()` (or run under `it.effect`) to travel in time.
 */
export const inMemoryEngine = (options: { readonly seed: number }) => sandboxEngineOn(InMemoryStorage, options)

/** `inMemoryEngine` on another storage adapter (SQL, or one wrapped to inject failures in tests). */
export const sandboxEngineOn = <E, R>(storage: Layer.Layer<EngineStorage, E, R>, options: { readonly seed: number }) =>
  engineOn(storage).pipe(
    Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layerSeeded(options.seed), ClockControl.testClock, sandboxWebhooks))
  )

/**
 * Webhooks as a sandbox in one process sends them: a secret key that lives as long as the process
 * (the in-memory store does too), and the sandbox's sender (loopback receivers allowed).
 */
export const sandboxWebhooks = Layer.mergeAll(WebhookSecretKey.ephemeral, WebhookSender.node(SANDBOX_SENDER_POLICY))

export type EngineExternal = BankGateway | NameVerifier | IdGenerator | WebhookSecretKey | WebhookSender

/**
 * The due-work worker over the engine's own due work (each organisation's daily run, the rooms'
 * deadlines) and `extra` (an embedder's, or store-sql's webhook deliveries): it runs each due row
 * at its instant on the clock it is built under (the real one in production). It only runs rows
 * when asked (`DueWorker.runDue`); `runDueWork` polls it.
 */
export const engineDueWorker = (options: DueWorkerOptions & { readonly extra?: ReadonlyArray<DueWorkDeclarations> }) =>
  Layer.unwrap(Effect.gen(function*() {
    const declared = [yield* dailyRunDeclarations(), ...(yield* DueKinds).declarations, ...(options.extra ?? [])]
    return DueWorker.layer(declared, options.leaseMillis === undefined ? { owner: options.owner } : { owner: options.owner, leaseMillis: options.leaseMillis })
  }))

/**
 * Gives every organisation holding data its next daily run when it has none pending (a new
 * organisation, or a store from before), and its next retention run when the worker runs
 * retention (`productionEngine`'s does): keys are dates, so two processes doing this at once make
 * one row per date.
 */
export const ensureDailyRuns: Effect.Effect<void, StorageFailure, RepositoryBackend | DueWorkStore | DueWorkSchedule | DueWorker> = Effect.gen(function*() {
  const store = yield* DueWorkStore
  const worker = yield* DueWorker
  for (const organisation of yield* (yield* RepositoryBackend).organisations) {
    if ((yield* store.pendingOf(organisation, DAILY_RUN_KIND)).length === 0) {
      yield* scheduleFirstDailyRun(organisation, yield* worker.nowOf(organisation))
    }
    if (worker.kinds.has(RETENTION_KIND) && (yield* store.pendingOf(organisation, RETENTION_KIND)).length === 0) {
      yield* scheduleFirstRetentionRun(organisation, yield* worker.nowOf(organisation))
    }
  }
})

export interface RunDueWorkOptions {
  /** How often an idle worker looks for due rows (default `DUE_POLL_INTERVAL_MS`). */
  readonly pollMillis?: number
  /** How often new organisations are given their daily run (default a minute). */
  readonly organisationsEveryMillis?: number
}

/**
 * Runs due work for as long as the layer's scope lives: the `DueWorker` polls for due rows, and
 * every organisation is given its daily run (at start, then every `organisationsEveryMillis`). Put
 * it in the host's process, or in a worker process of its own built on the same storage; several
 * processes may run it at once (rows are claimed with leases). A failed pass is logged and retried.
 * Its `DuePolling` pauses and resumes the polling.
 */
export const runDueWork = (options: RunDueWorkOptions = {}): Layer.Layer<DuePolling, never, RepositoryBackend | DueWorkStore | DueWorkSchedule | DueWorker> =>
  Layer.merge(
    DueWorker.poll(options.pollMillis ?? DUE_POLL_INTERVAL_MS).pipe(Layer.provideMerge(DuePolling.layer)),
    Layer.effectDiscard(Effect.gen(function*() {
      const context = yield* Effect.context<RepositoryBackend | DueWorkStore | DueWorkSchedule | DueWorker>()
      const pass = Effect.catchCause(Effect.provideContext(ensureDailyRuns, context), (cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError("due work: giving organisations their daily runs failed", Cause.pretty(cause)))
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(pass, Effect.sleep(options.organisationsEveryMillis ?? 60_000))))
    }))
  )

export interface ProductionEngineOptions {
  /**
   * The key (`WEBHOOK_SECRET_KEY_BYTES`, 32 bytes) that seals webhook endpoints' signing secrets in
   * storage: the same in every process and across restarts and upgrades, kept as the host keeps
   * its other secrets.
   */
  readonly webhookSecretKey: Uint8Array
  /** This process's name in the leases it takes on due rows; unique per process (e.g. host and pid). */
  readonly workerOwner: string
  /** Which webhook addresses may be delivered to (default `LIVE_SENDER_POLICY`: https only, no loopback). */
  readonly senderPolicy?: SenderPolicy
  /** Due work of the host's own, run by the same worker. */
  readonly extraDueWork?: ReadonlyArray<DueWorkDeclarations>
  readonly leaseMillis?: number
  /** How long events, webhook records and idempotency keys are kept (default `DEFAULT_RETENTION_POLICY`). */
  readonly retention?: RetentionPolicy
}

/** Events and webhook records kept `DEFAULT_EVENT_RETENTION_DAYS` (90) days, idempotency keys their lifetime (30 days). */
export const DEFAULT_RETENTION_POLICY: RetentionPolicy = retentionPolicy(DEFAULT_EVENT_RETENTION_DAYS, IDEMPOTENCY_KEY_LIFETIME_MS)

/**
 * What production storage holds besides `EngineStorage`: the webhook outbox (each event queued in
 * the transaction that committed it) and the pruning of old rows. `ProductionSqlStorage` of
 * @paykit/store-sql provides all of it.
 */
export type ProductionStorage = EngineStorage | WebhookOutbox | RetentionStore

/**
 * The engine as a production host embeds it: every API service on `storage`, on the real clock
 * (Effect's default `Clock`), random ids, webhook secrets sealed under the host's key, the live
 * webhook sender, and a due-work worker (add `runDueWork()` to start it) over the daily run, the
 * rooms' deadlines, webhook deliveries (the outbox's pump and each delivery's attempts) and
 * retention (`options.retention`), plus the host's `extraDueWork`. What is left to provide is
 * exactly the bank: a `BankGateway` and a `NameVerifier` (`SandboxBank` until a real one).
 */
export const productionEngine = <E, R>(storage: Layer.Layer<ProductionStorage, E, R>, options: ProductionEngineOptions) => {
  const worker = Layer.unwrap(Effect.map(
    Effect.all([webhookDueWork, retentionDueWork(options.retention ?? DEFAULT_RETENTION_POLICY)]),
    (own) =>
      engineDueWorker({
        owner: options.workerOwner,
        ...(options.leaseMillis === undefined ? {} : { leaseMillis: options.leaseMillis }),
        extra: [...own, ...(options.extraDueWork ?? [])]
      })
  ))
  return worker.pipe(
    Layer.provideMerge(WebhookDeliveries.layer),
    Layer.provideMerge(engineServicesOn(storage)),
    // The outbox and the retention store (the same storage layer, built once: layers are memoised).
    Layer.provideMerge(storage),
    Layer.provideMerge(Layer.mergeAll(
      IdGenerator.layer,
      WebhookSecretKey.fromKey(options.webhookSecretKey),
      WebhookSender.node(options.senderPolicy ?? LIVE_SENDER_POLICY)
    ))
  )
}

/**
 * The engine for tests: `sandboxEngineOn(storage)` (in memory unless given) with ids from `seed`,
 * the sandbox bank and webhooks, the simulator, and Effect's `TestClock` at `start` (epoch
 * milliseconds; default 0): nothing is left to provide. `Simulator.advanceTo` moves time.
 */
export const testEngine = <E = never, R = never>(options: {
  readonly seed: number
  readonly start?: number
  readonly storage?: Layer.Layer<EngineStorage, E, R>
}) =>
  Layer.merge(
    sandboxEngineOn(options.storage ?? InMemoryStorage, { seed: options.seed }),
    Layer.effectDiscard(TestClock.setTime(options.start ?? 0)).pipe(Layer.provideMerge(TestClock.layer()))
  )
