import { Context, Effect, Layer } from "effect"
import type { IdGenerator, InvalidState, NotFound, OperationError, OrganisationId, StorageError, StorageFailure, ValidationFailed } from "@paykit/core"
import { decodeAtBoundary } from "@paykit/core"
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
import {
  CREDITOR_BANK_ACCOUNTS_ROOT,
  CreditorBankAccountCreateRequest,
  CreditorBankAccountListParams,
  CreditorCreateRequest,
  CreditorListParams,
  CREDITORS_ROOT,
  CreditorUpdateRequest,
  VERIFICATION_DETAILS_ROOT,
  VerificationDetailCreateRequest,
  VerificationDetailListParams
} from "./domain/requests.ts"
import { createCreditor, type CreditorCreateOptions } from "./create-creditor.ts"
import { updateCreditor } from "./update-creditor.ts"
import { createBankAccount, disableBankAccount } from "./bank-accounts.ts"
import { createVerificationDetail } from "./verification-details.ts"
import { completeReviews } from "./reviews.ts"

type Errors = OperationError


const decodeCreate = decodeAtBoundary(CreditorCreateRequest, CREDITORS_ROOT)
const decodeUpdate = decodeAtBoundary(CreditorUpdateRequest, CREDITORS_ROOT)
const decodeBankAccount = decodeAtBoundary(CreditorBankAccountCreateRequest, CREDITOR_BANK_ACCOUNTS_ROOT)
const decodeVerificationDetail = decodeAtBoundary(VerificationDetailCreateRequest, VERIFICATION_DETAILS_ROOT)
const decodeList = decodeAtBoundary(CreditorListParams, CREDITORS_ROOT)
const decodeBankAccountList = decodeAtBoundary(CreditorBankAccountListParams, CREDITOR_BANK_ACCOUNTS_ROOT)
const decodeVerificationDetailList = decodeAtBoundary(VerificationDetailListParams, VERIFICATION_DETAILS_ROOT)
/** The creditors feature: creditors, their bank accounts and their verification. */
export class Creditors extends Context.Service<Creditors, {
  readonly create: (organisation: OrganisationId, command: typeof CreditorCreateRequest.Encoded) => Effect.Effect<Creditor, ValidationFailed | StorageFailure>
  /** `create` with what the API does not take (the sandbox's creditor, which collects on every direct-debit scheme). */
  readonly createWith: (organisation: OrganisationId, command: typeof CreditorCreateRequest.Encoded, options: CreditorCreateOptions) => Effect.Effect<Creditor, ValidationFailed | StorageFailure>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Creditor, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof CreditorListParams.Encoded) => Effect.Effect<Page<Creditor>, ValidationFailed | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof CreditorUpdateRequest.Encoded) => Effect.Effect<Creditor, Errors>
  readonly createBankAccount: (organisation: OrganisationId, command: typeof CreditorBankAccountCreateRequest.Encoded) => Effect.Effect<CreditorBankAccount, Errors>
  readonly getBankAccount: (organisation: OrganisationId, id: string) => Effect.Effect<CreditorBankAccount, NotFound | StorageError>
  readonly listBankAccounts: (organisation: OrganisationId, params: typeof CreditorBankAccountListParams.Encoded) => Effect.Effect<Page<CreditorBankAccount>, ValidationFailed | StorageError>
  /**
   * Disables an account for good (a new account is created to use the details again). An account
   * that is its creditor's default payout account in its currency stops being the default, so no
   * payout is sent to a disabled account; payouts wait until another default is set. Disabling a
   * disabled account answers it unchanged.
   */
  readonly disableBankAccount: (organisation: OrganisationId, id: string) => Effect.Effect<CreditorBankAccount, NotFound | InvalidState | StorageFailure>
  readonly createVerificationDetail: (organisation: OrganisationId, command: typeof VerificationDetailCreateRequest.Encoded) => Effect.Effect<VerificationDetail, Errors>
  readonly listVerificationDetails: (organisation: OrganisationId, params: typeof VerificationDetailListParams.Encoded) => Effect.Effect<Page<VerificationDetail>, ValidationFailed | StorageError>
  /**
   * The review of submitted verification details completes: an `in_review` creditor becomes
   * `successful`, and so do its bank accounts awaiting review. Run by the simulator.
   */
  readonly completeReviews: (organisation: OrganisationId) => Effect.Effect<ReadonlyArray<Creditor>, StorageError>
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
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(createCreditor(stores, o, c))),
        createWith: (o, command, options) => Effect.flatMap(decodeCreate(command), (c) => run(createCreditor(stores, o, c, options))),
        get: (o, id) => Effect.map(stores.creditors.get(o, id), (v) => v.resource),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => stores.creditors.list(o, toListQuery(p, {}))),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(updateCreditor(stores, o, id, c))),
        createBankAccount: (o, command) => Effect.flatMap(decodeBankAccount(command), (c) => run(createBankAccount(stores, o, c))),
        getBankAccount: (o, id) => Effect.map(stores.accounts.get(o, id), (v) => v.resource),
        listBankAccounts: (o, params) =>
          Effect.flatMap(decodeBankAccountList(params), (p) =>
            stores.accounts.list(o, toListQuery(p, {
              creditor: p.creditor === undefined ? undefined : eq(p.creditor),
              enabled: p.enabled === undefined ? undefined : eq(p.enabled)
            }))),
        disableBankAccount: (o, id) => run(disableBankAccount(stores, o, id)),
        createVerificationDetail: (o, command) => Effect.flatMap(decodeVerificationDetail(command), (c) => run(createVerificationDetail(stores, o, c))),
        listVerificationDetails: (o, params) => Effect.flatMap(decodeVerificationDetailList(params), (p) => stores.details.list(o, toListQuery(p, { creditor: eq(p.creditor) }))),
        completeReviews: (o) => completeReviews(stores, eachItem, o)
      })
    })
  )
}
