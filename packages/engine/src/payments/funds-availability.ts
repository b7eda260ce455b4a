import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, isIdOfResource, NotFound, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { MandateRepository } from "../mandates/repositories.ts"
import { CHARGEABLE_MANDATE_STATUSES } from "../mandates/domain/mandates.ts"
import { FUNDS_AVAILABILITY, type FundsAvailability, FundsAvailabilityParams } from "./domain/funds-availability.ts"

const decodeParams = decodeAtBoundary(FundsAvailabilityParams, FUNDS_AVAILABILITY)

/**
 * `GET /funds_availability/{mandate}`: whether the payer's account covers `amount` (none given:
 * any amount at all) now, as their bank answers through the `BankGateway`. A mandate that can no
 * longer be charged has no consent to check against, so its answer is `false`. paykit's mandates
 * carry no consent parameters (limits per period) yet, so none narrows the answer.
 */
export class FundsAvailabilities extends Context.Service<FundsAvailabilities, {
  readonly check: (organisation: OrganisationId, mandate: string, params: typeof FundsAvailabilityParams.Encoded) => Effect.Effect<FundsAvailability, ValidationFailed | NotFound | StorageError>
}>()("@paykit/engine/FundsAvailabilities") {
  static readonly layer: Layer.Layer<FundsAvailabilities, never, MandateRepository | CustomerBankAccountRepository | BankGateway> = Layer.effect(
    FundsAvailabilities,
    Effect.gen(function*() {
      const mandates = yield* MandateRepository
      const accounts = yield* CustomerBankAccountRepository
      const bank = yield* BankGateway
      return FundsAvailabilities.of({
        check: (organisation, id, query) =>
          Effect.gen(function*() {
            const params = yield* decodeParams(query)
            // The path names a mandate though its collection is not the mandates': a malformed id names none.
            if (!isIdOfResource("mandate", id)) return yield* new NotFound({ resource: "mandates", id })
            const mandate = (yield* mandates.get(organisation, id)).resource
            if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.status)) return { available: false }
            const account = (yield* Effect.orDie(accounts.get(organisation, mandate.links.customer_bank_account))).resource
            const available = yield* bank.checkFunds({ mandateId: mandate.id, accountHolderName: account.account_holder_name, amount: params.amount ?? 0 })
            return { available }
          })
      })
    })
  )
}
