import { Effect, Layer } from "effect"
import type { Cause } from "@paykit/machines"
import { AccountMandates } from "../customers/payer-ports.ts"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import { CANCELLABLE_MANDATE_STATUSES, cancelMandateWithPayments, MandateEndings } from "./mandate-cancel.ts"
import { MandateRepository } from "./repositories.ts"

/** The customers' `AccountMandates` port, answered from the mandates and cancelled through their machine. */
export const AccountMandatesLive: Layer.Layer<AccountMandates, never, MandateRepository | MandateEndings> = Layer.effect(
  AccountMandates,
  Effect.gen(function*() {
    const deps = { mandates: yield* MandateRepository, endings: yield* MandateEndings }
    return AccountMandates.of({
      anyOpen: (organisation, customer) =>
        Effect.map(deps.mandates.scan(organisation, { customer: eq(customer), status: oneOf(CANCELLABLE_MANDATE_STATUSES) }), (open) => open.length > 0),
      cancelOfAccount: (organisation: string, account: string, cause: Cause) =>
        Effect.gen(function*() {
          const open = yield* deps.mandates.scan(organisation, { customer_bank_account: eq(account), status: oneOf(CANCELLABLE_MANDATE_STATUSES) })
          for (const mandate of open) yield* cancelMandateWithPayments(deps, organisation, mandate, cause)
        })
    })
  })
)
