import { Effect, Layer } from "effect"
import { IdGenerator } from "@paykit/core"
import { InMemoryStorage } from "./memory/in-memory.ts"
import { SandboxBank } from "./memory/sandbox-bank.ts"
import type { BankGateway } from "./kernel/ports/bank-gateway.ts"
import type { EventLog } from "./kernel/ports/event-log.ts"
import type { NameVerifier } from "./kernel/ports/name-verifier.ts"
import type { RepositoryBackend, Transactor } from "./kernel/ports/repository.ts"
import { RepositoriesFromBackend } from "./repositories.ts"
import { Events } from "./kernel/events.ts"
import { ClockControl } from "./due-work/daily-clock.ts"
import { Simulator } from "./due-work/simulator.ts"
import { DueKinds, type DueWorkSchedule, type DueWorkStore } from "./kernel/ports/due-work.ts"
import { deadlinesOf, dueWorkOf, portsOf, servicesOf } from "./registry/room.ts"
import { ROOMS } from "./rooms.ts"
import { JobRegistry } from "./due-work/jobs.ts"
import { bankAccountHolderVerificationsRoom } from "./bank-account-holder-verifications/room.ts"
import { customerNotificationsRoom } from "./customer-notifications/room.ts"
import { flowsRoom } from "./flows/room.ts"
import { WebhookSecretKey } from "./webhooks/secret-box.ts"
import { SANDBOX_SENDER_POLICY, WebhookSender } from "./webhooks/sender.ts"

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
 * and an `IdGenerator`; it needs no `ClockControl` and has no simulator.
 */
export const engineServicesOn = <E, R>(storage: Layer.Layer<EngineStorage, E, R>) =>
  Layer.merge(EngineJobs, EngineDueKinds).pipe(
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
