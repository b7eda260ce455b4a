import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { Effect, Layer, Schedule } from "effect"
import { Paykit, productionEngine, type ProductionStorage, runDueWork, SandboxBank, type SenderPolicy } from "@paykit/engine"
import { ORG, setUpPayment } from "./engine-program.ts"

/**
 * The engine as a production host runs it: the real clock, random ids, the host's storage (with
 * its webhook outbox: `ProductionSqlStorage` of @paykit/store-sql) and webhook key, and the
 * due-work worker polling in this process: daily runs, deadlines, webhook deliveries, retention.
 * The bank is the sandbox's here. `senderPolicy` stays the live one (https only) unless given.
 */
export const productionLayer = <E, R>(storage: Layer.Layer<ProductionStorage, E, R>, senderPolicy?: SenderPolicy) =>
  runDueWork().pipe(Layer.provideMerge(productionEngine(storage, {
    webhookSecretKey: randomBytes(32), // the host's own key in production, the same across restarts
    workerOwner: `${hostname()}:${process.pid}`,
    ...(senderPolicy === undefined ? {} : { senderPolicy })
  })), Layer.provideMerge(SandboxBank))

/**
 * The payment of `setUpPayment`, then an outbound payment import: the engine validates an import
 * a few seconds after its creation, as due work, which the worker runs on the real clock.
 */
export const productionProgram = Effect.gen(function*() {
  const { account } = yield* setUpPayment
  const imports = (yield* Paykit).outboundPaymentImports
  const created = yield* imports.create(ORG, {
    entry_items: [{ scheme: "faster_payments", amount: 100, recipient_bank_account_id: account.id }]
  })
  const validated = yield* imports.get(ORG, created.id).pipe(
    Effect.filterOrFail((i) => i.status !== "validating", () => "still validating"),
    Effect.retry({ schedule: Schedule.spaced("500 millis"), times: 60 })
  )
  console.log(created.id, created.status, "->", validated.status)
  return { created, validated }
})
