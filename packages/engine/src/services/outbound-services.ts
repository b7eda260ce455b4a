import { Effect, Layer } from "effect"
import { now, today } from "@paykit/core"
import { OutboundPaymentImports } from "./outbound-payment-imports.ts"
import { OUTBOUND_PAYMENT_TIME_ZONE, OutboundPayments } from "./outbound-payments.ts"
import { PaymentAccounts } from "./payment-accounts.ts"

/**
 * The outbound family: payment accounts, outbound payments and their imports (which create
 * their payments through `OutboundPayments`). Needs the repositories, storage, `BankGateway`,
 * `NameVerifier` and `IdGenerator`, like every other engine service.
 */
export const OutboundServices = Layer.mergeAll(
  PaymentAccounts.layer,
  OutboundPaymentImports.layer.pipe(Layer.provideMerge(OutboundPayments.layer))
)

/** A job of the simulator's daily run (the shape of the simulator's `DailyJob`). */
export interface OutboundDailyJob {
  readonly name: string
  readonly run: (organisation: string) => Effect.Effect<void>
}

/**
 * The outbound family's part of the simulator's daily run, in this order (docs/engine.md):
 *  1. imports being validated finish validating (valid or invalid);
 *  2. imports left unauthorised for the authorisation window expire;
 *  3. scheduled outbound payments due today (London) are executed or fail.
 * Validation runs before expiry so an import created just before a run is judged on its entries,
 * and execution runs last so a payment approved during the day goes out on that day's run.
 */
export const outboundDailyJobs: Effect.Effect<ReadonlyArray<OutboundDailyJob>, never, OutboundPayments | OutboundPaymentImports> =
  Effect.gen(function*() {
    const payments = yield* OutboundPayments
    const imports = yield* OutboundPaymentImports
    return [
      { name: "outbound payment imports: validation", run: (o) => Effect.asVoid(imports.validatePending(o)) },
      { name: "outbound payment imports: expiry", run: (o) => Effect.flatMap(now, (at) => Effect.asVoid(imports.expireUnauthorised(o, at))) },
      {
        name: "outbound payments: execution",
        run: (o) => Effect.flatMap(today(OUTBOUND_PAYMENT_TIME_ZONE), (day) => Effect.asVoid(payments.executeDue(o, day)))
      }
    ]
  })
