import { Context, Effect, Layer } from "effect"
import type { IdGenerator, NotFound, OperationError, OrganisationId, StorageError, ValidationFailed } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import type { Page } from "../kernel/ports/list-query.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { captureUnitOfWork, type EngineContext } from "../kernel/support.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { AppAttributionRepository } from "../ledger/repositories.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "../customers/repositories.ts"
import { Customers } from "../customers/customers.ts"
import { Mandates } from "../mandates/mandates.ts"
import { Payments } from "../payments/payments.ts"
import { Subscriptions } from "../subscriptions/subscriptions.ts"
import { BillingRequestRepository, CustomerBillingDetailRepository } from "./repositories.ts"
import { Institutions } from "../institutions/institutions.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { Institution } from "../institutions/domain/institutions.ts"
import { BillingRequestInstitutionParams } from "../institutions/domain/institution-params.ts"
import { decodeAtBoundary, decodeOptionalAtBoundary, MetadataUpdateRequest } from "@paykit/core"
import { BillingRequestCreate, CollectBankAccount } from "@paykit/validation"
import {
  BillingRequestListParams,
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  NotifyRequest,
  SelectInstitutionRequest
} from "./domain/billing-request-commands.ts"
import { billingRequestDeps } from "./deps.ts"
import { checkPayerNotRemoved, createBillingRequest } from "./create.ts"
import { collectCustomerDetails } from "./collect-customer-details.ts"
import { collectBankAccount } from "./collect-bank-account.ts"
import { fulfilBillingRequest } from "./fulfil.ts"
import { cancelBillingRequest, confirmPayerDetails, fallbackBillingRequest, notifyPayer } from "./actions.ts"
import { chooseCurrency } from "./choose-currency.ts"
import { selectInstitution } from "./select-institution.ts"
import { billingRequestInstitutions, getBillingRequest, listBillingRequests } from "./read.ts"

export {
  BillingRequestListParams,
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  NotifyRequest,
  SelectInstitutionRequest
}
export { NAME_MISMATCH_MESSAGE } from "./collect-bank-account.ts"
export { bankAuthorisationScheme } from "./read.ts"

/** What a billing request action can fail with. */
export type BillingRequestErrors = OperationError


const ROOT = "billing_requests"
const decodeCreate = decodeAtBoundary(BillingRequestCreate, ROOT)
const decodeList = decodeAtBoundary(BillingRequestListParams, ROOT)
const decodeInstitutionList = decodeAtBoundary(BillingRequestInstitutionParams, "institutions")
const decodeCustomerDetails = decodeAtBoundary(CollectCustomerDetailsRequest, ROOT)
const decodeBankAccount = decodeAtBoundary(CollectBankAccount, ROOT)
const decodeConfirm = decodeOptionalAtBoundary(ConfirmPayerDetailsRequest, ROOT)
const decodeMetadata = decodeOptionalAtBoundary(MetadataUpdateRequest, ROOT)
const decodeNotify = decodeAtBoundary(NotifyRequest, ROOT)
const decodeCurrency = decodeAtBoundary(ChooseCurrencyRequest, ROOT)
const decodeInstitution = decodeAtBoundary(SelectInstitutionRequest, ROOT)
/**
 * The billing request API: typed commands in (decoded at the edge with the Schemas of
 * `REQUEST_BODIES.billing_requests`), one use case per action under `billing-requests/`, each
 * run as one unit of work.
 */
export class BillingRequests extends Context.Service<BillingRequests, {
  readonly create: (organisation: OrganisationId, command: typeof BillingRequestCreate.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<BillingRequest, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof BillingRequestListParams.Encoded) => Effect.Effect<Page<BillingRequest>, ValidationFailed | StorageError>
  readonly collectCustomerDetails: (organisation: OrganisationId, id: string, command: typeof CollectCustomerDetailsRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly collectBankAccount: (organisation: OrganisationId, id: string, command: typeof CollectBankAccount.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly confirmPayerDetails: (organisation: OrganisationId, id: string, command?: typeof ConfirmPayerDetailsRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly fulfil: (organisation: OrganisationId, id: string, command?: typeof MetadataUpdateRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly cancel: (organisation: OrganisationId, id: string, command?: typeof MetadataUpdateRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  /** Records the request to notify the payer. No email is sent: see docs/engine.md. */
  readonly notify: (organisation: OrganisationId, id: string, command: typeof NotifyRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly fallback: (organisation: OrganisationId, id: string) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly chooseCurrency: (organisation: OrganisationId, id: string, command: typeof ChooseCurrencyRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly selectInstitution: (organisation: OrganisationId, id: string, command: typeof SelectInstitutionRequest.Encoded) => Effect.Effect<BillingRequest, BillingRequestErrors>
  /** `GET /billing_requests/{id}/institutions`. */
  readonly institutions: (organisation: OrganisationId, id: string, params: typeof BillingRequestInstitutionParams.Encoded) => Effect.Effect<ReadonlyArray<Institution>, ValidationFailed | NotFound | StorageError>
}>()("@paykit/engine/BillingRequests") {
  static readonly layer: Layer.Layer<
    BillingRequests,
    never,
    | BillingRequestRepository
    | CustomerBillingDetailRepository
    | CustomerRepository
    | CustomerBankAccountRepository
    | CreditorRepository
    | Customers
    | Mandates
    | Payments
    | Subscriptions
    | Institutions
    | NameVerifier
    | AppAttributionRepository
    | Transactor
    | IdGenerator
    | EventLog
  > = Layer.effect(
    BillingRequests,
    Effect.gen(function*() {
      const deps = yield* billingRequestDeps
      const run = yield* captureUnitOfWork
      /** An action of the payer's journey, refused once the customer was removed (a cancellation is not one). */
      const act = <A, E>(o: string, id: string, action: Effect.Effect<A, E, EngineContext>) => run(Effect.andThen(checkPayerNotRemoved(deps, o, id), action))
      return BillingRequests.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(createBillingRequest(deps, o, c))),
        get: (o, id) => getBillingRequest(deps, o, id),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => listBillingRequests(deps, o, p)),
        collectCustomerDetails: (o, id, command) => Effect.flatMap(decodeCustomerDetails(command), (c) => act(o, id, collectCustomerDetails(deps, o, id, c))),
        collectBankAccount: (o, id, command) => Effect.flatMap(decodeBankAccount(command), (c) => act(o, id, collectBankAccount(deps, o, id, c))),
        confirmPayerDetails: (o, id, command) => Effect.flatMap(decodeConfirm(command), (c = {}) => act(o, id, confirmPayerDetails(deps, o, id, c))),
        fulfil: (o, id, command) => Effect.flatMap(decodeMetadata(command), (c = {}) => act(o, id, fulfilBillingRequest(deps, o, id, c))),
        cancel: (o, id, command) => Effect.flatMap(decodeMetadata(command), (c = {}) => run(cancelBillingRequest(deps, o, id, c))),
        notify: (o, id, command) => Effect.flatMap(decodeNotify(command), (c) => act(o, id, notifyPayer(deps, o, id, c))),
        fallback: (o, id) => act(o, id, fallbackBillingRequest(deps, o, id)),
        chooseCurrency: (o, id, command) => Effect.flatMap(decodeCurrency(command), (c) => act(o, id, chooseCurrency(deps, o, id, c))),
        selectInstitution: (o, id, command) => Effect.flatMap(decodeInstitution(command), (c) => act(o, id, selectInstitution(deps, o, id, c))),
        institutions: (o, id, params) => Effect.flatMap(decodeInstitutionList(params), (p) => billingRequestInstitutions(deps, o, id, p))
      })
    })
  )
}
