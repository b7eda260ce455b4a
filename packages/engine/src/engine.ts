import { Effect, Layer } from "effect"
import { IdGenerator } from "@paykit/core"
import { InMemoryStorage } from "./memory/in-memory.ts"
import { SandboxBank } from "./memory/sandbox-bank.ts"
import type { BankGateway } from "./kernel/ports/bank-gateway.ts"
import type { EventLog } from "./kernel/ports/event-log.ts"
import type { NameVerifier } from "./kernel/ports/name-verifier.ts"
import type { RepositoryBackend, Transactor } from "./kernel/ports/repository.ts"
import { RepositoriesFromBackend } from "./repositories.ts"
import { Creditors } from "./creditors/creditors.ts"
import { Customers } from "./customers/customers.ts"
import { Events } from "./kernel/events.ts"
import { Mandates } from "./mandates/mandates.ts"
import { Payments } from "./payments/payments.ts"
import { Payouts } from "./payouts/payouts.ts"
import { Subscriptions } from "./subscriptions/subscriptions.ts"
import { BankAuthorisations } from "./bank-authorisations/bank-authorisations.ts"
import { BillingRequests } from "./billing-requests/billing-requests.ts"
import { Institutions } from "./institutions/institutions.ts"
import { NegativeBalanceLimits } from "./ledger/negative-balance-limits.ts"
import { OutboundServices } from "./outbound-payments/outbound-services.ts"
import { PayerAuthorisations } from "./payer-authorisations/payer-authorisations.ts"
import { BankAccountHolderVerifications } from "./bank-account-holder-verifications/bank-account-holder-verifications.ts"
import { CustomerNotifications } from "./customer-notifications/customer-notifications.ts"
import { BillingRequestFlows } from "./flows/billing-request-flows.ts"
import { BillingRequestTemplates } from "./flows/billing-request-templates.ts"
import { BillingRequestsWithActions } from "./flows/billing-requests-with-actions.ts"
import { RedirectFlows } from "./flows/redirect-flows.ts"
import { PayerThemes } from "./creditors/payer-themes.ts"
import { TaxRates } from "./payouts/tax-rates.ts"
import { MoneyReads } from "./payouts/money-reads.ts"
import { SchemeIdentifiers } from "./creditors/scheme-identifier-records.ts"
import { FundsAvailabilities } from "./payments/funds-availability.ts"
import { Exports } from "./exports/exports.ts"
import { MandatePdfs } from "./mandate-pdfs/mandate-pdfs.ts"
import { ScenarioSimulators } from "./scenarios/scenario-simulators.ts"
import { ClockControl } from "./due-work/daily-clock.ts"
import { Simulator } from "./due-work/simulator.ts"
import { DueKinds, type DueWorkSchedule, type DueWorkStore } from "./kernel/ports/due-work.ts"
import { deadlinesOf, dueWorkOf } from "./registry/room.ts"
import { ROOMS } from "./rooms.ts"
import { JobRegistry } from "./due-work/jobs.ts"
import { WebhookServices } from "./webhooks/webhook-services.ts"
import { WebhookSecretKey } from "./webhooks/secret-box.ts"
import { SANDBOX_SENDER_POLICY, WebhookSender } from "./webhooks/sender.ts"
import { BlockScreenLive } from "./blocks/block-screen.ts"
import { AccountMandatesLive } from "./mandates/account-mandates.ts"
import { MandateEndingsLive } from "./subscriptions/mandate-endings.ts"
import { PayerRecordEraserLive } from "./flows/payer-erasure.ts"
import { Blocks } from "./blocks/blocks.ts"
import { InstalmentSchedules } from "./instalments/instalment-schedules.ts"
import { MandateImports } from "./mandate-imports/mandate-imports.ts"
import { BankDetailsVaultLive } from "./documents/bank-details-vault.ts"
import { EncryptedBankDetails } from "./documents/encrypted-details.ts"
import { Logos } from "./documents/logos.ts"
import { PublicKeys } from "./documents/public-keys.ts"

/**
 * The ports the lower rooms declare and the upper ones implement (docs/architecture.md, "Rooms"):
 * the customers' block screen, bank details vault, account mandates and payer record eraser, and
 * the mandates' endings. Each needs only storage, so they sit under every service.
 */
const Ports = Layer.mergeAll(
  BlockScreenLive,
  BankDetailsVaultLive,
  PayerRecordEraserLive,
  AccountMandatesLive.pipe(Layer.provideMerge(MandateEndingsLive))
)

/**
 * The hosted flows' services (`flows/`) and their neighbours' (`bank-account-holder-verifications/`,
 * `customer-notifications/`), built on the billing request and bank authorisation services.
 */
export const FlowServices = Layer.mergeAll(
  BillingRequestFlows.layer,
  BillingRequestTemplates.layer,
  RedirectFlows.layer,
  BillingRequestsWithActions.layer,
  BankAccountHolderVerifications.layer,
  CustomerNotifications.layer
)

/**
 * The services the others build on: customers, mandates, payments, subscriptions (and the
 * reference data), on the ports.
 */
const FoundationServices = Subscriptions.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(
    Customers.layer,
    Mandates.layer,
    Payments.layer,
    Institutions.layer,
    TaxRates.layer
  )),
  Layer.provideMerge(Ports)
)

/**
 * Every API-facing engine service: creditors (with bank accounts and verification details),
 * customers (with bank accounts), mandates, payments and refunds, subscriptions, payouts, events,
 * outbound payments, imports and payment accounts, billing requests, bank and payer
 * authorisations, institutions, tax rates, negative balance limits, payer themes and logos,
 * webhook endpoints and records, public keys and the encrypted bank details reads, and the sandbox's scenario simulators (served on a sandbox server
 * only). It needs storage (`EngineStorage` and the repositories), a `BankGateway`, a
 * `NameVerifier`, an `IdGenerator`, and for webhooks a `WebhookSecretKey` and a `WebhookSender`;
 * never `ClockControl`: only the simulator moves time, and it is not part of this layer.
 */
export const ApiServices = ScenarioSimulators.layer.pipe(Layer.provideMerge(Layer.mergeAll(
  Creditors.layer,
  Payouts.layer,
  Events.layer,
  NegativeBalanceLimits.layer,
  OutboundServices,
  PayerAuthorisations.layer,
  PayerThemes.layer,
  FlowServices.pipe(Layer.provideMerge(BankAuthorisations.layer.pipe(Layer.provideMerge(BillingRequests.layer)))),
  WebhookServices,
  InstalmentSchedules.layer,
  Blocks.layer,
  MandateImports.layer,
  MoneyReads,
  SchemeIdentifiers.layer,
  FundsAvailabilities.layer,
  Exports.layer,
  MandatePdfs.layer,
  Logos.layer,
  EncryptedBankDetails.layer.pipe(Layer.provideMerge(PublicKeys.layer))
).pipe(Layer.provideMerge(FoundationServices))))

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
