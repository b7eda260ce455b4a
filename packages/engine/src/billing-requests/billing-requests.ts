import { Context, Effect, Layer } from "effect"
import type { IdGenerator, NotFound, OperationError } from "@paykit/core"
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
import type { BillingRequestInstitutionParams } from "../institutions/domain/institution-params.ts"
import {
  type BillingRequestCreateCommand,
  BillingRequestListParams,
  ChooseCurrencyRequest,
  type CollectBankAccountCommand,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  type MetadataCommand,
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

/**
 * The billing request API: typed commands in (decoded at the edge with the Schemas of
 * `REQUEST_BODIES.billing_requests`), one use case per action under `billing-requests/`, each
 * run as one unit of work.
 */
export class BillingRequests extends Context.Service<BillingRequests, {
  readonly create: (organisation: string, command: BillingRequestCreateCommand) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly get: (organisation: string, id: string) => Effect.Effect<BillingRequest, NotFound>
  readonly list: (organisation: string, params: BillingRequestListParams) => Effect.Effect<Page<BillingRequest>>
  readonly collectCustomerDetails: (organisation: string, id: string, command: CollectCustomerDetailsRequest) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly collectBankAccount: (organisation: string, id: string, command: CollectBankAccountCommand) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly confirmPayerDetails: (organisation: string, id: string, command?: ConfirmPayerDetailsRequest) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly fulfil: (organisation: string, id: string, command?: MetadataCommand) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly cancel: (organisation: string, id: string, command?: MetadataCommand) => Effect.Effect<BillingRequest, BillingRequestErrors>
  /** Records the request to notify the payer. No email is sent: see docs/engine.md. */
  readonly notify: (organisation: string, id: string, command: NotifyRequest) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly fallback: (organisation: string, id: string) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly chooseCurrency: (organisation: string, id: string, command: ChooseCurrencyRequest) => Effect.Effect<BillingRequest, BillingRequestErrors>
  readonly selectInstitution: (organisation: string, id: string, command: SelectInstitutionRequest) => Effect.Effect<BillingRequest, BillingRequestErrors>
  /** `GET /billing_requests/{id}/institutions`. */
  readonly institutions: (organisation: string, id: string, params: BillingRequestInstitutionParams) => Effect.Effect<ReadonlyArray<Institution>, NotFound>
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
        create: (o, c) => run(createBillingRequest(deps, o, c)),
        get: (o, id) => getBillingRequest(deps, o, id),
        list: (o, p) => listBillingRequests(deps, o, p),
        collectCustomerDetails: (o, id, c) => act(o, id, collectCustomerDetails(deps, o, id, c)),
        collectBankAccount: (o, id, c) => act(o, id, collectBankAccount(deps, o, id, c)),
        confirmPayerDetails: (o, id, c = {}) => act(o, id, confirmPayerDetails(deps, o, id, c)),
        fulfil: (o, id, c = {}) => act(o, id, fulfilBillingRequest(deps, o, id, c)),
        cancel: (o, id, c = {}) => run(cancelBillingRequest(deps, o, id, c)),
        notify: (o, id, c) => act(o, id, notifyPayer(deps, o, id, c)),
        fallback: (o, id) => act(o, id, fallbackBillingRequest(deps, o, id)),
        chooseCurrency: (o, id, c) => act(o, id, chooseCurrency(deps, o, id, c)),
        selectInstitution: (o, id, c) => act(o, id, selectInstitution(deps, o, id, c)),
        institutions: (o, id, p) => billingRequestInstitutions(deps, o, id, p)
      })
    })
  )
}
