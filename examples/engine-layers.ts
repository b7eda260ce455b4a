import type { Layer } from "effect"
import type { IdGenerator } from "@paykit/core"
import {
  type BankGateway, engineOn, engineServicesOn, type NameVerifier, productionEngine, type ProductionStorage, sandboxEngineOn,
  testEngine, type ClockControl, type WebhookSecretKey, type WebhookSender
} from "@paykit/engine"

/** True when a layer needs exactly `R`: no more, no less. */
type Needs<L extends Layer.Any, R> = [Layer.Services<L>] extends [R] ? [R] extends [Layer.Services<L>] ? true : false : false

/** Storage with the webhook outbox and retention: `ProductionSqlStorage` of @paykit/store-sql. */
declare const storage: Layer.Layer<ProductionStorage>
const production = productionEngine(storage, { webhookSecretKey: new Uint8Array(32), workerOwner: "host-1" })
export const productionNeedsTheBank: Needs<typeof production, BankGateway | NameVerifier> = true

export const testNeedsNothing: Needs<ReturnType<typeof testEngine<never, never>>, never> = true

export const sandboxNeedsTheTestClock: Needs<ReturnType<typeof sandboxEngineOn<never, never>>, never> = true

export const servicesNeed: Needs<
  ReturnType<typeof engineServicesOn<never, never>>,
  BankGateway | NameVerifier | IdGenerator | WebhookSecretKey | WebhookSender
> = true

export const engineNeeds: Needs<
  ReturnType<typeof engineOn<never, never>>,
  BankGateway | NameVerifier | IdGenerator | WebhookSecretKey | WebhookSender | ClockControl
> = true
