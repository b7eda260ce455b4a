import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, invalidField, InvalidState, newId, NotFound, now, type OperationError, type OrganisationId, type StorageError } from "@paykit/core"
import { bankAccountHolderVerificationMachine } from "@paykit/machines"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { API_CAUSE, applyCreation, captureIdGenerator, captureUnitOfWork, type UnitOfWork } from "../kernel/support.ts"
import { BankAccountHolderVerificationRepository } from "./repositories.ts"
import {
  type BankAccountHolderVerification,
  BankAccountHolderVerificationCreateRequest
} from "./domain/bank-account-holder-verifications.ts"

const ROOT = "bank_account_holder_verifications"
const decodeCreate = decodeAtBoundary(BankAccountHolderVerificationCreateRequest, ROOT)

export { BankAccountHolderVerificationCreateRequest }

/** Confirmation of payee is a UK service: the account must be a GB one. */
const COP_COUNTRY = "GB"

interface Deps {
  readonly verifications: BankAccountHolderVerificationRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly verifier: NameVerifier["Service"]
  /** Stores the check with its history; the bank is asked outside it, holding no transaction open. */
  readonly run: UnitOfWork
}

/**
 * Asks the account's bank whether the holder's name matches (the `NameVerifier`), and keeps the
 * answer: the check, asked before it is stored, is created pending and completed in one write.
 */
const create = (deps: Deps, organisation: string, req: BankAccountHolderVerificationCreateRequest) =>
  Effect.gen(function*() {
    const account = (yield* deps.accounts.get(organisation, req.links.bank_account).pipe(
      Effect.mapError(() => invalidField(ROOT, ["links", "bank_account"], "must be a customer bank account of this organisation"))
    )).resource
    if (!account.enabled) return yield* new InvalidState({ reason: "bank_account_disabled", message: "The bank account is disabled" })
    if (account.country_code !== COP_COUNTRY) {
      return yield* invalidField(ROOT, ["links", "bank_account"], "must be a GB bank account: confirmation of payee is a UK service")
    }
    const verification = yield* deps.verifier.verify({
      account_holder_name: account.account_holder_name,
      account_number_ending: account.account_number_ending,
      country_code: account.country_code
    })
    const cause = API_CAUSE("bank_account_holder_verification_created")
    const links = { bank_account: account.id }
    const stored = yield* deps.run(applyCreation(deps.verifications, {
      organisation,
      machine: bankAccountHolderVerificationMachine,
      state: "pending",
      resource: {
        id: yield* newId("bank_account_holder_verification"),
        created_at: yield* now,
        type: req.type,
        result: verification.result,
        actual_account_name: verification.actual_account_name,
        reference: req.reference ?? null,
        links
      },
      cause,
      links,
      then: [{ event: "complete", context: {}, cause, links }]
    }))
    return stored.resource
  })

export class BankAccountHolderVerifications extends Context.Service<BankAccountHolderVerifications, {
  readonly create: (organisation: OrganisationId, command: typeof BankAccountHolderVerificationCreateRequest.Encoded) => Effect.Effect<BankAccountHolderVerification, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BankAccountHolderVerification, NotFound | StorageError>
}>()("@paykit/engine/BankAccountHolderVerifications") {
  static readonly layer: Layer.Layer<
    BankAccountHolderVerifications,
    never,
    BankAccountHolderVerificationRepository | CustomerBankAccountRepository | NameVerifier | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    BankAccountHolderVerifications,
    Effect.gen(function*() {
      const deps: Deps = {
        verifications: yield* BankAccountHolderVerificationRepository,
        accounts: yield* CustomerBankAccountRepository,
        verifier: yield* NameVerifier,
        run: yield* captureUnitOfWork
      }
      const withIds = yield* captureIdGenerator
      return BankAccountHolderVerifications.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => withIds(create(deps, o, c))),
        get: (o, id) => Effect.map(deps.verifications.get(o, id), (v) => v.resource)
      })
    })
  )
}
