import { Context, Effect, Layer } from "effect"
import type { IdGenerator, InvalidState, NotFound, OperationError } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import { CreditorBankAccountRepository, CreditorRepository, creditorStores, type SchemeIdentifierLocationRepository, VerificationDetailRepository } from "./repositories.ts"
import type { CreditorBankAccount } from "./domain/creditor-bank-accounts.ts"
import type { Creditor } from "./domain/creditors.ts"
import type { VerificationDetail } from "./domain/verification-details.ts"
import type {
  CreditorBankAccountCreateCommand,
  CreditorBankAccountListParams,
  CreditorCreateCommand,
  CreditorListParams,
  CreditorUpdateCommand,
  VerificationDetailCreateCommand,
  VerificationDetailListParams
} from "./domain/requests.ts"
import { createCreditor } from "./create-creditor.ts"
import { updateCreditor } from "./update-creditor.ts"
import { createBankAccount, disableBankAccount } from "./bank-accounts.ts"
import { createVerificationDetail } from "./verification-details.ts"
import { completeReviews } from "./reviews.ts"

type Errors = OperationError

/** The creditors feature: creditors, their bank accounts and their verification. */
export class Creditors extends Context.Service<Creditors, {
  readonly create: (organisation: string, command: CreditorCreateCommand) => Effect.Effect<Creditor>
  readonly get: (organisation: string, id: string) => Effect.Effect<Creditor, NotFound>
  readonly list: (organisation: string, params: CreditorListParams) => Effect.Effect<Page<Creditor>>
  readonly update: (organisation: string, id: string, command: CreditorUpdateCommand) => Effect.Effect<Creditor, Errors>
  readonly createBankAccount: (organisation: string, command: CreditorBankAccountCreateCommand) => Effect.Effect<CreditorBankAccount, Errors>
  readonly getBankAccount: (organisation: string, id: string) => Effect.Effect<CreditorBankAccount, NotFound>
  readonly listBankAccounts: (organisation: string, params: CreditorBankAccountListParams) => Effect.Effect<Page<CreditorBankAccount>>
  /**
   * Disables an account for good (a new account is created to use the details again). An account
   * that is its creditor's default payout account in its currency stops being the default, so no
   * payout is sent to a disabled account; payouts wait until another default is set. Disabling a
   * disabled account answers it unchanged.
   */
  readonly disableBankAccount: (organisation: string, id: string) => Effect.Effect<CreditorBankAccount, NotFound | InvalidState>
  readonly createVerificationDetail: (organisation: string, command: VerificationDetailCreateCommand) => Effect.Effect<VerificationDetail, Errors>
  readonly listVerificationDetails: (organisation: string, params: VerificationDetailListParams) => Effect.Effect<Page<VerificationDetail>>
  /**
   * The review of submitted verification details completes: an `in_review` creditor becomes
   * `successful`, and so do its bank accounts awaiting review. Run by the simulator.
   */
  readonly completeReviews: (organisation: string) => Effect.Effect<ReadonlyArray<Creditor>>
}>()("@paykit/engine/Creditors") {
  static readonly layer: Layer.Layer<
    Creditors,
    never,
    CreditorRepository | CreditorBankAccountRepository | VerificationDetailRepository | SchemeIdentifierLocationRepository | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    Creditors,
    Effect.gen(function*() {
      const stores = yield* creditorStores
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems
      return Creditors.of({
        create: (o, c) => run(createCreditor(stores, o, c)),
        get: (o, id) => Effect.map(stores.creditors.get(o, id), (v) => v.resource),
        list: (o, p) => stores.creditors.list(o, toListQuery(p, {})),
        update: (o, id, c) => run(updateCreditor(stores, o, id, c)),
        createBankAccount: (o, c) => run(createBankAccount(stores, o, c)),
        getBankAccount: (o, id) => Effect.map(stores.accounts.get(o, id), (v) => v.resource),
        listBankAccounts: (o, p) =>
          stores.accounts.list(o, toListQuery(p, {
            creditor: p.creditor === undefined ? undefined : eq(p.creditor),
            enabled: p.enabled === undefined ? undefined : eq(p.enabled)
          })),
        disableBankAccount: (o, id) => run(disableBankAccount(stores, o, id)),
        createVerificationDetail: (o, c) => run(createVerificationDetail(stores, o, c)),
        listVerificationDetails: (o, p) => stores.details.list(o, toListQuery(p, { creditor: eq(p.creditor) })),
        completeReviews: (o) => completeReviews(stores, eachItem, o)
      })
    })
  )
}
